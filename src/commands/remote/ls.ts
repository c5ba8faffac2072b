import { commandFrom } from '../../cli/command-from.js'
import { remoteLsSpec } from '../../cli/specs/remote-ls.js'

export default commandFrom(remoteLsSpec)
