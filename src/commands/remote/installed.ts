import { commandFrom } from '../../cli/command-from.js'
import { remoteInstalledSpec } from '../../cli/specs/remote-installed.js'

export default commandFrom(remoteInstalledSpec)
