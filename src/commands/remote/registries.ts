import { commandFrom } from '../../cli/command-from.js'
import { remoteRegistriesSpec } from '../../cli/specs/remote-registries.js'

export default commandFrom(remoteRegistriesSpec)
