import { commandFrom } from '../cli/command-from.js'
import { mcpSpec } from '../cli/specs/mcp.js'

export default commandFrom(mcpSpec)
