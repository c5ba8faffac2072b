/**
 * The part of the MCP SDK that `mcp` needs to answer over stdio. scripts/bundle.mjs bundles it,
 * packages included, into dist/bundle/mcp-sdk.js with V8's code cache: loaded as the SDK's ~100
 * ES modules it costs several times more than the loader's work on 100 packs. Only the mcp
 * command loads it (cli/actions/mcp.ts, loadSdk); Streamable HTTP is imported from the package
 * when --http asks for it.
 */
export { Server } from '@modelcontextprotocol/sdk/server/index.js'
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
export {
  CallToolRequestSchema,
  isInitializeRequest,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
