/** `lsp`: the language server on stdio, until the client goes (`lsp/server.ts`). */

import type { InputOf } from '../errors.js'
import type { lspSpec as Lsp } from '../specs/lsp.js'

export async function lspAction(_input: InputOf<typeof Lsp>): Promise<number> {
  const { startServer } = await import('../../lsp/server.js')
  startServer({ input: process.stdin, output: process.stdout })
  // The connection ends the process itself (exit, input closed, client gone).
  return new Promise<number>(() => {})
}
