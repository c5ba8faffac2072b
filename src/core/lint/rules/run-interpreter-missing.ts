import { toText } from '../../go/gostring.js'
import type { ManifestRule } from './util.js'

const rule: ManifestRule = {
  id: 'run/interpreter-missing',
  severity: 'warn',
  category: 'manager',
  kind: 'manifest',
  docs: 'The `#!` interpreter is missing (or not executable) on this machine: every run here would fail to start; the manager’s host may differ.',
  check(ctx, report) {
    const p = ctx.entry()
    if (p?.kind !== 'interpreter') return
    report({
      at: ctx.keyAt('entry'),
      message: toText(p.message),
      hint: `${toText(p.interpreter)} ${p.missing ? 'does not exist' : 'is not executable'} on this machine; check that the manager's host has it.`,
    })
  },
}
export default rule
