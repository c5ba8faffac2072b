import { SKILL_MD, skillMd } from './examples.js'
import { nativeErrorRule } from './families.js'
export default nativeErrorRule({
  id: 'native/missing-description',
  severity: 'error',
  docs: 'The frontmatter has no (or a blank) `description`: the manager skips the file.',
  examples: { bad: [{ files: skillMd('---\nname: disk_free\n---\n') }], good: [{ files: SKILL_MD }] },
  stage: 'missing-description',
})
