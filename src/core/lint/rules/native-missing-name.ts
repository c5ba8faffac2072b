import { toText } from '../../go/gostring.js'
import { SKILL_MD, skillMd } from '../rule-kit/examples.js'
import { nativeErrorRule } from '../rule-kit/families.js'

const clip = (s: string) => ([...s].length > 40 ? `${[...s].slice(0, 40).join('')}…` : s)

export default nativeErrorRule({
  id: 'native/missing-name',
  severity: 'error',
  docs: 'The frontmatter has no (or a blank) `name`: the manager skips the file.',
  examples: { bad: [{ files: skillMd('# Disk free\n') }], good: [{ files: SKILL_MD }] },
  stage: 'missing-name',
  hint(ctx) {
    const split = ctx.parse?.split
    if (!split?.ok || split.frontmatter !== null) return undefined
    const first = split.firstLine
    return first
      ? `no frontmatter: the first non-blank line must be exactly "---" (it is ${JSON.stringify(clip(toText(first.text)))})`
      : 'no frontmatter: start the file with a "---" line, then name: and description:, then "---"'
  },
})
