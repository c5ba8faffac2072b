import { SKILL_MD, SKILL_MD_TEXT, skillMd } from '../rule-kit/examples.js'
import { nativeErrorRule } from '../rule-kit/families.js'
export default nativeErrorRule({
  id: 'native/read',
  severity: 'error',
  docs: 'The manager cannot read the SKILL.md (`chatruntime: read …`).',
  examples: { bad: [{ files: skillMd({ file: SKILL_MD_TEXT, mode: 0o000 }) }], good: [{ files: SKILL_MD }] },
  stage: 'read',
})
