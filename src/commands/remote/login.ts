import { commandFrom } from '../../cli/command-from.js'
import { remoteLoginSpec } from '../../cli/specs/remote-login.js'

export default commandFrom(remoteLoginSpec)
