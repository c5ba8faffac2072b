import { commandFrom } from '../cli/command-from.js'
import { lspSpec } from '../cli/specs/lsp.js'

export default commandFrom(lspSpec)
