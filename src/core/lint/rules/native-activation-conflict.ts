import { skillMdWith } from '../rule-kit/examples.js'
import { nativeWarningRule } from '../rule-kit/families.js'
export default nativeWarningRule({
  id: 'native/activation-conflict',
  severity: 'warn',
  docs: 'Both `activation` and `metadata.ongrid.activation` set different modes: the manager uses the latter, with a warning.',
  examples: {
    bad: [
      {
        files: skillMdWith(
          'activation: {mode: keyword, keywords: [disk]}\nmetadata: {ongrid: {activation: {mode: always}}}\n',
        ),
      },
    ],
    good: [{ files: skillMdWith('metadata: {ongrid: {activation: {mode: always}}}\n') }],
  },
  code: 'activation_conflict',
})
