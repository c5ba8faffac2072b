import { toText } from '../../go/gostring.js'
import { MAX_DESCRIPTION, MIN_DESCRIPTION } from '../../practice.js'
import { pack } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'

const rule: ManifestRule = {
  id: 'practice/description-length',
  severity: 'warn',
  category: 'best-practice',
  kind: 'manifest',
  docs: `The description (what the LLM reads to pick the tool) is under ${MIN_DESCRIPTION} or over ${MAX_DESCRIPTION} characters.`,
  why: 'The LLM picks a tool by its name and description alone: a short one gives it nothing to choose by, and a long one is sent with every turn.',
  examples: { bad: [{ files: pack({ description: 'Disk.' }) }], good: [{ files: pack() }] },
  check(ctx, report) {
    const d = ctx.parsed?.manifest.description ?? ''
    if (!ctx.ok || d === '') return
    const n = [...toText(d)].length
    if (n >= MIN_DESCRIPTION && n <= MAX_DESCRIPTION) return
    report({
      at: ctx.keyAt('description'),
      message:
        n < MIN_DESCRIPTION
          ? `the description has ${n} characters: say what the skill does and when to use it in at least ${MIN_DESCRIPTION}`
          : `the description has ${n} characters: keep it under ${MAX_DESCRIPTION}, the LLM reads it on every turn`,
    })
  },
}
export default rule
