import { toText } from '../../go/gostring.js'
import type { ManifestRule } from './util.js'

const rule: ManifestRule = {
  id: 'run/exec-format',
  severity: 'error',
  category: 'manager',
  kind: 'manifest',
  docs: 'The entry is neither a `#!` script nor an ELF binary for this machine: every run fails with `exec format error` (Go does not fall back to /bin/sh), or `permission denied` for a FIFO or device.',
  check(ctx, report) {
    const p = ctx.entry()
    if (p?.kind !== 'exec-format') return
    report({
      at: ctx.keyAt('entry'),
      message: toText(p.message),
      hint: 'start the file with a #! line, e.g. #!/bin/sh.',
    })
  },
}
export default rule
