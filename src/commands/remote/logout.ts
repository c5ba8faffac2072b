import { commandFrom } from '../../cli/command-from.js'
import { remoteLogoutSpec } from '../../cli/specs/remote-logout.js'

export default commandFrom(remoteLogoutSpec)
