import { pack } from './examples.js'
import { entryProblemRule } from './families.js'
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
