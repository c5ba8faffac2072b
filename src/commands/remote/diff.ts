import { commandFrom } from '../../cli/command-from.js'
import { remoteDiffSpec } from '../../cli/specs/remote-diff.js'

export default commandFrom(remoteDiffSpec)
