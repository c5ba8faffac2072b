import { SKILL_MD, skillMd } from './examples.js'
import { nativeErrorRule } from './families.js'
export default nativeErrorRule({
  id: 'native/read',
  severity: 'error',
  docs: 'The manager cannot read the SKILL.md (`chatruntime: read …`).',
  examples: { bad: [{ files: skillMd({ link: 'nowhere' }) }], good: [{ files: SKILL_MD }] },
  stage: 'read',
})
