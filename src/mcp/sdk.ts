/**
 * The part of the MCP SDK that `mcp` needs to answer over stdio. scripts/bundle.mjs bundles it,
 * packages included, into dist/bundle/mcp-sdk.js with V8's code cache: loaded as the SDK's ~100
 * ES modules it costs several times more than the loader's work on 100 packs. Only the mcp
 * command loads it (mcp/sdk-load.ts); Streamable HTTP is its own bundle
 * (mcp/sdk-http.ts), loaded when --http asks for it.
 */
export { Server } from '@modelcontextprotocol/sdk/server/index.js'
export {
  isInitializeRequest,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'

import { CallToolRequestSchema, RequestSchema } from '@modelcontextprotocol/sdk/types.js'

/**
 * tools/call with its params taken as they came: CallToolRequestSchema rebuilds `arguments` key
 * by key, and an assigned `__proto__` key sets the copy's prototype instead (the entry would get
 * `{}`, where the manager sends the key). The Server still checks each tools/call request against
 * CallToolRequestSchema before the handler runs; only its copy is not used.
 */
export const CallToolAsSentSchema = CallToolRequestSchema.extend({
  params: RequestSchema.shape.params.unwrap(),
})
