import { SKILL_MD, skillMd } from '../rule-kit/examples.js'
import { nativeErrorRule } from '../rule-kit/families.js'
export default nativeErrorRule({
  id: 'native/missing-description',
  severity: 'error',
  docs: 'The frontmatter has no (or a blank) `description`: the manager skips the file.',
  examples: { bad: [{ files: skillMd('---\nname: disk_free\n---\n') }], good: [{ files: SKILL_MD }] },
  stage: 'missing-description',
})
