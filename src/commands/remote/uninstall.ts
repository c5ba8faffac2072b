import { commandFrom } from '../../cli/command-from.js'
import { remoteUninstallSpec } from '../../cli/specs/remote-uninstall.js'

export default commandFrom(remoteUninstallSpec)
