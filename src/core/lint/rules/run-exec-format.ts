import { pack } from '../rule-kit/examples.js'
import { entryProblemRule } from '../rule-kit/families.js'
export default entryProblemRule({
  id: 'run/exec-format',
  severity: 'error',
  docs: 'The entry is neither a `#!` script nor an ELF binary for this machine: every run fails with `exec format error` (Go does not fall back to /bin/sh), or `permission denied` for a FIFO or device.',
  examples: {
    bad: [{ files: pack({}, { 'run.sh': { exec: "echo '{}'\n" } }) }],
    good: [{ files: pack() }],
  },
  problem: 'exec-format',
  hint: () => 'start the file with a #! line, e.g. #!/bin/sh.',
})
