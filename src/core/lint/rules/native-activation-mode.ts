import { toText } from '../../go/gostring.js'
import { skillMdWith } from '../rule-kit/examples.js'
import { effectiveActivation, managerMode } from '../rule-kit/native-activation.js'
import type { NativeRule } from '../rule-kit/util.js'

const rule: NativeRule = {
  id: 'native/activation-mode',
  severity: 'warn',
  category: 'best-practice',
  kind: 'native',
  docs: 'The activation mode is neither `always` nor `keyword`: the manager treats it as always, without a warning.',
  examples: {
    bad: [{ files: skillMdWith('activation: {mode: sometimes}\n') }],
    good: [{ files: skillMdWith('activation: {mode: always}\n') }],
  },
  check(ctx, report) {
    const a = effectiveActivation(ctx)
    const p = ctx.parse
    if (!a?.mode || !p) return
    const mode = managerMode(a.mode.value)
    if (mode === '' || mode === 'always' || mode === 'keyword') return
    report({
      at: null,
      ...p.pos(a.mode.at),
      message: `${a.where}.mode ${JSON.stringify(toText(a.mode.value))} is not "always" or "keyword": the manager treats it as always, silently`,
    })
  },
}
export default rule
