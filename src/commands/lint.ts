import { commandFrom } from '../cli/command-from.js'
import { lintSpec } from '../cli/specs/lint.js'

export default commandFrom(lintSpec)
