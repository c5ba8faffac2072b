import { SKILL_MD, skillMd } from '../rule-kit/examples.js'
import { nativeErrorRule } from '../rule-kit/families.js'
export default nativeErrorRule({
  id: 'native/yaml-type',
  severity: 'error',
  docs: 'yaml.v3 cannot decode the frontmatter into the manager’s Skill struct (its type errors, duplicate keys).',
  examples: {
    bad: [{ files: skillMd('---\nname: [disk_free]\ndescription: Reports free space.\n---\n') }],
    good: [{ files: SKILL_MD }],
  },
  stage: 'yaml-type',
})
