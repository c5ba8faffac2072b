import { SKILL_MD, skillMd } from '../rule-kit/examples.js'
import { nativeErrorRule } from '../rule-kit/families.js'
export default nativeErrorRule({
  id: 'native/frontmatter',
  severity: 'error',
  docs: 'The frontmatter cannot be split: opened with `---` but never closed, or a line over 1 MiB.',
  examples: { bad: [{ files: skillMd('---\nname: disk_free\n') }], good: [{ files: SKILL_MD }] },
  stage: 'split',
})
