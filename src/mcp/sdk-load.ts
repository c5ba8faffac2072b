/** The MCP SDK's surfaces, loaded when a server starts (never by other commands): the build's bundles, else ES modules. */

import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { packageRoot } from '../core/package-root.js'

export type SdkServer = import('@modelcontextprotocol/sdk/server/index.js').Server
type Sdk = typeof import('./sdk.js')
type SdkHttp = typeof import('./sdk-http.js')

let sdkMemo: Promise<Sdk> | undefined
let httpMemo: Promise<SdkHttp> | undefined

/**
 * The SDK surface (mcp/sdk.ts): from dist/bundle/mcp-sdk.js with V8's code cache when the
 * build made it (a rejected cache only costs the compile), else as ES modules (a tree that was not
 * built: the SDK is a devDependency, the package ships it only in the bundles).
 */
export function loadSdk(): Promise<Sdk> {
  sdkMemo ??= loadBundle<Sdk>('mcp-sdk', () => import('./sdk.js'))
  return sdkMemo
}

/** Streamable HTTP (mcp/sdk-http.ts), from dist/bundle/mcp-http.js the same way. */
export function loadSdkHttp(): Promise<SdkHttp> {
  httpMemo ??= loadBundle<SdkHttp>('mcp-http', () => import('./sdk-http.js'))
  return httpMemo
}

async function loadBundle<T>(name: string, modules: () => Promise<T>): Promise<T> {
  const file = join(packageRoot(), 'dist', 'bundle', `${name}.js`)
  let source: string
  try {
    source = readFileSync(file, 'utf8')
  } catch {
    return await modules()
  }
  let cachedData: Buffer | undefined
  try {
    cachedData = readFileSync(join(dirname(file), `${name}.cache`))
  } catch {}
  const { Script } = createRequire(import.meta.url)('node:vm') as typeof import('node:vm')
  const script = new Script(source, { filename: file, cachedData })
  if (process.env.ONGRID_SKILL_DEBUG_LOAD)
    process.stderr.write(
      `ongrid-skill: MCP SDK from dist/bundle/${name}.js, code cache ${cachedData === undefined ? 'missing' : script.cachedDataRejected ? 'rejected' : 'accepted'}\n`,
    )
  const module = { exports: {} as T }
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file))
  return module.exports
}
