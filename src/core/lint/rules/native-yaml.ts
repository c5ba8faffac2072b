import { SKILL_MD, skillMd } from '../rule-kit/examples.js'
import { nativeErrorRule } from '../rule-kit/families.js'
export default nativeErrorRule({
  id: 'native/yaml',
  severity: 'error',
  docs: 'The frontmatter is not valid YAML for yaml.v3: the manager skips the file, with yaml.v3’s own message (`yaml: line N: …`).',
  examples: { bad: [{ files: skillMd('---\nname: [disk_free\n---\n') }], good: [{ files: SKILL_MD }] },
  stage: 'yaml',
  text: true,
})
