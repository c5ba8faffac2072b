import { commandFrom } from '../cli/command-from.js'
import { evalSpec } from '../cli/specs/eval.js'

export default commandFrom(evalSpec)
