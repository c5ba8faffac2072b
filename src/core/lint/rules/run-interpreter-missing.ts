import { toText } from '../../go/gostring.js'
import { pack } from './examples.js'
import { entryProblemRule } from './families.js'
export default entryProblemRule({
  id: 'run/interpreter-missing',
  severity: 'warn',
  docs: 'The `#!` interpreter is missing (or not executable) on this machine: every run here would fail to start; the manager’s host may differ.',
  examples: {
    bad: [{ files: pack({}, { 'run.sh': { exec: '#!/opt/no/such/python3\nprint("{}")\n' } }) }],
    good: [{ files: pack() }],
  },
  problem: 'interpreter',
  hint: (p) =>
    `${toText(p.interpreter)} ${p.missing ? 'does not exist' : 'is not executable'} on this machine; check that the manager's host has it.`,
})
