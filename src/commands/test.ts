import { commandFrom } from '../cli/command-from.js'
import { testSpec } from '../cli/specs/test.js'

export default commandFrom(testSpec)
