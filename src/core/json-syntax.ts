import { checkValid } from './go/encoding/json/scanner.js'
import { type GoString, toText } from './go/gostring.js'

/** `line L, column C` of the byte Go's scanner stopped at (its offset counts the bytes read). */
export function lineColumn(data: GoString, offset: number): string {
  const at = Math.max(0, Math.min(offset, data.length) - 1)
  const before = data.slice(0, at)
  const line = before.split('\n').length
  const column = at - (before.lastIndexOf('\n') + 1) + 1
  return `line ${line}, column ${column}`
}

/**
 * Why a file's bytes are not JSON, in Go's words (`invalid character 'x' looking for …`, one
 * character quoted, escaped as %q) and where: never an excerpt of the content, as V8's
 * JSON.parse messages give (`"FOO=secret"... is not valid JSON`), which would put a file's
 * bytes in a finding.
 */
export function jsonSyntaxText(data: GoString): string {
  const bad = checkValid(data)
  // JSON.parse and Go disagree (V8's depth limit): nothing of the content either way.
  if (bad === null) return 'nested too deep to parse'
  return `${toText(bad.error())} (${lineColumn(data, bad.offset)})`
}
