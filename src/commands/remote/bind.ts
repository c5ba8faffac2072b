import { commandFrom } from '../../cli/command-from.js'
import { remoteBindSpec } from '../../cli/specs/remote-bind.js'

export default commandFrom(remoteBindSpec)
