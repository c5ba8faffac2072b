import { commandFrom } from '../cli/command-from.js'
import { runSpec } from '../cli/specs/run.js'

export default commandFrom(runSpec)
