import { pack } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'run/env-lookup',
  severity: 'warn',
  category: 'manager',
  kind: 'manifest',
  docs: '`#!/usr/bin/env CMD` that cannot work under the manager: CMD not on glibc’s default path when PATH is not in env_allow, or `env` given several words as one.',
  examples: {
    bad: [{ files: pack({}, { 'run.sh': { exec: "#!/usr/bin/env sh -e\necho '{}'\n" } }) }],
    good: [{ files: pack({}, { 'run.sh': { exec: "#!/usr/bin/env -S sh -e\necho '{}'\n" } }) }],
  },
  check(ctx, report) {
    if (!ctx.skill || ctx.entry() !== null) return
    const problem = ctx.envLookup()
    if (problem) report({ at: ctx.keyAt('entry'), message: problem })
  },
}
export default rule
