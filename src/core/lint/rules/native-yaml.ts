import { SKILL_MD, skillMd } from './examples.js'
import { nativeErrorRule } from './families.js'
export default nativeErrorRule({
  id: 'native/yaml',
  severity: 'error',
  docs: 'The frontmatter is not valid YAML: the manager skips the file (its yaml.v3 message is not reproduced; ours says what is wrong).',
  examples: { bad: [{ files: skillMd('---\nname: [disk_free\n---\n') }], good: [{ files: SKILL_MD }] },
  stage: 'yaml',
  text: true,
})
