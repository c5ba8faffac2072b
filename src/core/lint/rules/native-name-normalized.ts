import { SKILL_MD, skillMd } from './examples.js'
import { nativeWarningRule } from './families.js'
export default nativeWarningRule({
  id: 'native/name-normalized',
  severity: 'warn',
  docs: 'The name is not snake_case: the manager loads the skill under a normalised name, with a warning.',
  examples: {
    bad: [{ files: skillMd('---\nname: Disk-Free\ndescription: Reports free space.\n---\n') }],
    good: [{ files: SKILL_MD }],
  },
  code: 'name_normalized',
})
