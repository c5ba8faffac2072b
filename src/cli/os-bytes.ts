import { isUtf8 } from 'node:buffer'
import { readFileSync } from 'node:fs'
import { fromBuffer, fromText, type GoString } from '../core/go/gostring.js'

/**
 * Bytes from the OS, as the manager gets them. Node hands over command-line arguments and
 * environment values as text, with U+FFFD for bytes that are not UTF-8; a dir named in
 * Latin-1 would then be looked for under another name. On Linux the bytes themselves are in
 * /proc/self/cmdline and /proc/self/environ: a value that Node decoded lossily is taken from
 * there (only when decoding the bytes gives exactly Node's text, so nothing is mixed up).
 */

const nodeText = (b: GoString) => Buffer.from(b, 'latin1').toString('utf8')

function nulRecords(path: string): GoString[] | null {
  try {
    const s = fromBuffer(readFileSync(path))
    const recs = s.split('\0')
    if (recs.at(-1) === '') recs.pop()
    return recs
  } catch {
    return null
  }
}

let args: GoString[] | null | undefined

/** The command-line arguments after the script, as bytes; null when they cannot be matched up. */
function rawArgs(): GoString[] | null {
  if (args !== undefined) return args
  args = null
  const user = process.argv.slice(2)
  const recs = nulRecords('/proc/self/cmdline')
  if (recs !== null && recs.length >= user.length) {
    const tail = recs.slice(recs.length - user.length)
    if (tail.every((r, i) => nodeText(r) === user[i])) args = tail
  }
  return args
}

/** The bytes of a command-line value (an argument, or a flag's value) that Node gave as `text`. */
export function argBytes(text: string): GoString {
  if (!text.includes('\ufffd')) return fromText(text)
  for (const raw of rawArgs() ?? []) {
    if (nodeText(raw) === text) return raw
    const eq = raw.startsWith('--') ? raw.indexOf('=') : -1
    if (eq > 0 && nodeText(raw.slice(eq + 1)) === text) return raw.slice(eq + 1)
  }
  return fromText(text)
}

let environ: Map<string, GoString> | null | undefined

/** A variable of the environment this process started with, as bytes, if it is the one Node shows. */
export function envBytes(name: string): GoString | undefined {
  const text = process.env[name]
  if (text === undefined) return undefined
  if (!text.includes('\ufffd')) return fromText(text)
  if (environ === undefined) {
    const recs = nulRecords('/proc/self/environ')
    environ = recs === null ? null : environRecords(recs)
  }
  const raw = environ?.get(name)
  return raw !== undefined && nodeText(raw) === text ? raw : fromText(text)
}

/** NAME=value records, names as text; a repeated name keeps its first value, as Go reads it. */
export function environRecords(recs: readonly GoString[]): Map<string, GoString> {
  const out = new Map<string, GoString>()
  for (const rec of recs) {
    const eq = rec.indexOf('=')
    if (eq <= 0) continue
    const name = nodeText(rec.slice(0, eq))
    if (!out.has(name)) out.set(name, rec.slice(eq + 1))
  }
  return out
}

/** Whether a byte string is valid UTF-8 (so Node can pass it on unchanged). */
export function validUtf8(b: GoString): boolean {
  return isUtf8(Buffer.from(b, 'latin1'))
}
