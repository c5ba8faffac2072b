import { pack } from '../rule-kit/examples.js'
import { entryProblemRule } from '../rule-kit/families.js'
export default entryProblemRule({
  id: 'run/entry-directory',
  severity: 'error',
  docs: 'The entry is a directory: every run fails (`subprocess skill: entry … is a directory`).',
  examples: {
    bad: [{ files: pack({ entry: 'bin' }, { bin: { dir: true } }) }],
    good: [{ files: pack() }],
  },
  problem: 'directory',
})
