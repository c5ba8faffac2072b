/**
 * The part of the MCP SDK that `mcp --http` adds to mcp/sdk.ts: the Streamable HTTP server
 * transport. scripts/bundle.mjs bundles it, packages included, into dist/bundle/mcp-http.js (a
 * bundle of its own, so stdio never loads it): the npm package ships the SDK only inside these two
 * bundles, not as a dependency (installed size, see docs/decisions.md).
 */
export { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
