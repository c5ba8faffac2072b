import { commandFrom } from '../cli/command-from.js'
import { validateSpec } from '../cli/specs/validate.js'

export default commandFrom(validateSpec)
