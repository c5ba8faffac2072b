import { pack } from '../rule-kit/examples.js'
import { entryProblemRule } from '../rule-kit/families.js'
export default entryProblemRule({
  id: 'run/entry-stat',
  severity: 'error',
  docs: "The entry cannot be stat'ed: every run fails before it starts (`subprocess skill: stat …`).",
  examples: {
    bad: [],
    good: [{ files: pack() }],
    noBad:
      'the loader resolves the entry (EvalSymlinks) just before the executor stats it: only an entry removed or changed between the two fails the stat.',
  },
  problem: 'stat',
})
