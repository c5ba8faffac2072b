import { commandFrom } from '../cli/command-from.js'
import { versionSpec } from '../cli/specs/version.js'

export default commandFrom(versionSpec)
