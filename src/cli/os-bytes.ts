import { isUtf8 } from 'node:buffer'
import { readFileSync } from 'node:fs'
import { fromBuffer, fromText, type GoBytes, type GoString, toText } from '../core/go/gostring.js'
import { quote } from '../core/go/strconv/quote.js'
import { EXTERNAL_DIRS_ENV, splitExternalDirs } from '../core/loader/dirs.js'
import { UserError } from './errors.js'

/**
 * The inputs that name paths, as the bytes given: every command takes its PATH and DIR
 * arguments, its path flags, --dirs and ONGRID_SKILLS_EXTERNAL_DIRS through here, so a dir
 * named in Latin-1 is the same dir for each of them.
 *
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
export function argBytes(text: string): GoBytes {
  if (!text.includes('\ufffd')) return fromText(text)
  for (const raw of rawArgs() ?? []) {
    if (nodeText(raw) === text) return raw as GoBytes
    const eq = raw.startsWith('--') ? raw.indexOf('=') : -1
    if (eq > 0 && nodeText(raw.slice(eq + 1)) === text) return raw.slice(eq + 1) as GoBytes
  }
  return fromText(text)
}

/** A path flag's value as the bytes given (undefined when the flag is not). */
export function pathFlag(text: string | undefined): GoBytes | undefined {
  return text === undefined ? undefined : argBytes(text)
}

/** A path flag's or argument's value for Node's fs calls: the bytes given, as Node opens them. */
export function osPath(text: string): string | Buffer {
  const b = argBytes(text)
  return validUtf8(b) ? text : Buffer.from(b, 'latin1')
}

/**
 * A path given as `text` to a step that works by text paths (it writes through the atomic
 * writer, watches, opens a database): the text, when the bytes given are that text; a name that
 * is not UTF-8 is a usage error that says so (`what`: the flag or argument, as typed), never a
 * file made or read under Node's other name for it.
 */
export function textPath<T extends string | undefined>(what: string, text: T): T {
  if (text === undefined) return text
  const b = argBytes(text)
  if (validUtf8(b)) return text
  throw new UserError(
    `${what}${what === '' ? '' : ' '}${toText(quote(b))}: the name is not UTF-8, and this step works by text paths (Node's, where the bytes would become another name); rename it`,
  )
}

/**
 * The dirs a command walks, as bytes: its DIR arguments, else `--dirs` (split as the manager
 * splits the variable), else ONGRID_SKILLS_EXTERNAL_DIRS; none, an empty list.
 */
export function dirsOf(argv: readonly string[], dirsFlag?: string): GoBytes[] {
  if (argv.length > 0) return argv.map(argBytes)
  return splitExternalDirs(dirsFlag !== undefined ? argBytes(dirsFlag) : envBytes(EXTERNAL_DIRS_ENV))
}

/**
 * dirsOf for a command that takes DIR arguments: none at all is a usage error, said once here
 * (`what`: what a DIR may be, when more than an allow-list root).
 */
export function dirsGiven(argv: readonly string[], what?: string): GoBytes[] {
  const dirs = dirsOf(argv)
  if (dirs.length === 0)
    throw new UserError(
      `no dirs: pass DIR arguments${what === undefined ? '' : ` (${what})`} or set ${EXTERNAL_DIRS_ENV}`,
    )
  return dirs
}

let environ: Map<string, GoString> | null | undefined

/** A variable of the environment this process started with, as bytes, if it is the one Node shows. */
export function envBytes(name: string): GoBytes | undefined {
  const text = process.env[name]
  if (text === undefined) return undefined
  if (!text.includes('\ufffd')) return fromText(text)
  if (environ === undefined) {
    const recs = nulRecords('/proc/self/environ')
    environ = recs === null ? null : environRecords(recs)
  }
  const raw = environ?.get(name)
  return raw !== undefined && nodeText(raw) === text ? (raw as GoBytes) : fromText(text)
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
