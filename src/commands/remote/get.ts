import { commandFrom } from '../../cli/command-from.js'
import { remoteGetSpec } from '../../cli/specs/remote-get.js'

export default commandFrom(remoteGetSpec)
