import { commandFrom } from '../cli/command-from.js'
import { loadDirsSpec } from '../cli/specs/load-dirs.js'

export default commandFrom(loadDirsSpec)
