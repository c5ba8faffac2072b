import { SKILL_MD, skillMd } from './examples.js'
import { nativeErrorRule } from './families.js'
export default nativeErrorRule({
  id: 'native/frontmatter',
  severity: 'error',
  docs: 'The frontmatter cannot be split: opened with `---` but never closed, or a line over 1 MiB.',
  examples: { bad: [{ files: skillMd('---\nname: disk_free\n') }], good: [{ files: SKILL_MD }] },
  stage: 'split',
})
