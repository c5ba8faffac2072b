import { pack } from './examples.js'
import { entryProblemRule } from './families.js'
export default entryProblemRule({
  id: 'run/not-executable',
  severity: 'error',
  docs: 'The entry has no execute bit: every run fails (`subprocess skill: entry … not executable`).',
  examples: {
    bad: [{ files: pack({}, { 'run.sh': "#!/bin/sh\necho '{}'\n" }) }],
    good: [{ files: pack() }],
  },
  problem: 'not-executable',
  hint: () => 'chmod +x it (and commit the mode: git update-index --chmod=+x).',
})
