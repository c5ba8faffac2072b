import { trimSpace } from '../../go/gostring.js'
import { skillMdWith } from '../rule-kit/examples.js'
import { effectiveActivation, managerMode } from '../rule-kit/native-activation.js'
import type { NativeRule } from '../rule-kit/util.js'

const rule: NativeRule = {
  id: 'native/keywords-missing',
  severity: 'warn',
  category: 'best-practice',
  kind: 'native',
  docs: 'Activation mode `keyword` with no non-blank keywords: the skill never activates.',
  examples: {
    bad: [{ files: skillMdWith('activation: {mode: keyword, keywords: [" "]}\n') }],
    good: [{ files: skillMdWith('activation: {mode: keyword, keywords: [disk]}\n') }],
  },
  check(ctx, report) {
    const a = effectiveActivation(ctx)
    const p = ctx.parse
    if (!a?.mode || !p || managerMode(a.mode.value) !== 'keyword') return
    const kws = a.keywords?.k === 'list' ? a.keywords.items : []
    if (kws.some((k) => k.k === 'string' && trimSpace(k.value) !== '')) return
    report({
      at: null,
      ...p.pos(a.mode.at),
      message: `${a.where}.mode is "keyword" but there are no keywords: the skill is never included in a turn`,
    })
  },
}
export default rule
