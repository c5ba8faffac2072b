import { pack, SKILL_MD } from '../rule-kit/examples.js'
import type { AnyRule } from '../rule-kit/util.js'

const rule: AnyRule = {
  id: 'input/skipped',
  severity: 'error',
  category: 'manager',
  kind: 'any',
  docs: "ongrid-skill did not read the file: a FIFO (the manager's boot blocks on it), a device that does not end (the manager reads it forever), a skill.json too large to hold, or a SKILL.md over 16 MiB or not a regular file.",
  examples: {
    bad: [{ files: pack({}, { 'skill.json': { link: '/dev/zero' } }) }],
    good: [{ files: pack() }, { files: SKILL_MD }],
  },
  check(ctx, report) {
    if (ctx.skipped === null) return
    report({ at: null, message: `not checked: ${ctx.skipped}` })
  },
}
export default rule
