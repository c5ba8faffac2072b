import { expectsSuccess } from '../../testcases/cases.js'
import { pack } from '../rule-kit/examples.js'
import { casesOf } from '../rule-kit/tests-util.js'
import type { ManifestRule } from '../rule-kit/util.js'

const SCHEMA = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }

const rule: ManifestRule = {
  id: 'tests/args-schema',
  severity: 'warn',
  category: 'tests',
  kind: 'manifest',
  docs: "A case that expects success sends args that do not match the pack's `schema` (cases that expect an error or a timeout may send bad args on purpose).",
  examples: {
    bad: [
      {
        files: pack(
          { schema: SCHEMA },
          { 'tests/root.json': '{"name": "root", "args": {}, "expect": {"ok": true}}\n' },
        ),
      },
    ],
    good: [
      {
        files: pack(
          { schema: SCHEMA },
          { 'tests/root.json': '{"name": "root", "args": {"path": "/"}, "expect": {"ok": true}}\n' },
        ),
      },
    ],
  },
  prepare: (ctx) => ctx.loadArgsCheck(),
  check(ctx, report) {
    const argsCheck = ctx.argsCheck
    if (argsCheck === null) return
    for (const c of casesOf(ctx)) {
      for (const tc of c.file.cases) {
        const e = tc.expect
        if (!expectsSuccess(e)) continue
        const problems = argsCheck(tc.argsValue)
        if (problems.length === 0) continue
        const at = tc.index === null ? '' : `/${tc.index}`
        // At `args` when the case has it; a missing key points at the case itself.
        const pointer = `${at}/args`
        report({
          at: null,
          file: c.file.file,
          ...c.position(pointer),
          message: `case ${JSON.stringify(tc.name)}: ${problems.join('; ')}`,
          hint: 'the manager does not check args: the entry gets them as they are; expect an error if that is the point',
        })
      }
    }
  },
}
export default rule
