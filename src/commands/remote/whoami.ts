import { commandFrom } from '../../cli/command-from.js'
import { remoteWhoamiSpec } from '../../cli/specs/remote-whoami.js'

export default commandFrom(remoteWhoamiSpec)
