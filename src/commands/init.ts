import { commandFrom } from '../cli/command-from.js'
import { initSpec } from '../cli/specs/init.js'

export default commandFrom(initSpec)
