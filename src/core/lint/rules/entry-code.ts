/**
 * The entry's own code, for the `entry/` rules: its bytes (read with a bound, only when regular),
 * the language it is written in (its `#!` line, else its name), and the code lines with comments
 * left out. Read once per check of a skill.json, whichever rules ask.
 */
import { fromBuffer, type GoString, toBuffer, toText } from '../../go/gostring.js'
import { base } from '../../go/path/filepath/path.js'
import { readRegularSized } from '../../read-bounded.js'
import type { ManifestContext } from '../context.js'
import { shebang } from '../entry.js'
import { LineIndex } from '../position.js'

/** Entries larger than this are not read (a script is a few KiB). */
export const MAX_ENTRY_BYTES = 1024 * 1024

export type Language = 'shell' | 'python' | 'node'

export interface EntryCode {
  /** Absolute path (byte string, and as text). */
  path: GoString
  file: string
  language: Language
  /** The shell the `#!` line names (`sh`, `bash`…), or null (none, or not a shell). */
  shell: string | null
  /** The file's bytes (a char code per byte). */
  raw: GoString
  lines: LineIndex
}

const SHELLS = /^(sh|bash|dash|ksh|ksh93|mksh|ash|busybox|zsh)$/
const PYTHON = /^(python|pypy)[0-9.]*$/
const NODE = /^(node|nodejs|bun|deno)$/

/** What an interpreter's name says of the language. */
function languageOf(name: string): Language | null {
  if (SHELLS.test(name)) return 'shell'
  if (PYTHON.test(name)) return 'python'
  if (NODE.test(name)) return 'node'
  return null
}

/** The program a `#!` line runs: its interpreter, or what `env` is to run. */
function programOf(interpreter: GoString, arg: GoString | null): string {
  const name = base(interpreter)
  if (name !== 'env' || arg === null) return name
  const words = arg.split(/[ \t]+/).filter((w) => w !== '' && !w.startsWith('-') && !w.includes('='))
  return words.length > 0 ? base(words[0]) : name
}

const memo = new WeakMap<ManifestContext, EntryCode | null>()

/** The entry of a pack that builds, when it is a regular file of a language the rules know. */
export function entryCode(ctx: ManifestContext): EntryCode | null {
  const got = memo.get(ctx)
  if (got !== undefined) return got
  const code = readEntry(ctx)
  memo.set(ctx, code)
  return code
}

function readEntry(ctx: ManifestContext): EntryCode | null {
  const path = ctx.skill?.entry
  if (path === undefined) return null
  let buf: Buffer
  try {
    buf = readRegularSized(toBuffer(path), MAX_ENTRY_BYTES)
  } catch {
    return null // missing, not regular, too large: the run/ rules say what every run would hit
  }
  const sb = shebang(path)
  let language: Language | null = null
  let shell: string | null = null
  if (sb !== null) {
    const program = programOf(sb.interpreter, sb.arg)
    language = languageOf(program)
    if (language === 'shell') shell = program
  } else {
    const ext = /\.([A-Za-z]+)$/.exec(base(path))?.[1]?.toLowerCase()
    if (ext === 'sh' || ext === 'bash' || ext === 'ksh') language = 'shell'
    else if (ext === 'py') language = 'python'
    else if (ext === 'js' || ext === 'mjs' || ext === 'cjs') language = 'node'
  }
  if (language === null) return null
  const raw = fromBuffer(buf)
  return { path, file: toText(path), language, shell, raw, lines: new LineIndex(raw) }
}
