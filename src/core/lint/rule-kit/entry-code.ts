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
import type { ManifestRule } from './util.js'

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
  // Asked on every call: a rule that needs the entry of a pack that does not build did not check it.
  if (ctx.skill === null) return null
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

const strippedMemo = new WeakMap<EntryCode, GoString>()

/**
 * The entry's text with its comments blanked out (each comment byte a space, so offsets and
 * lines stay): a shell or Python `#` that starts a word outside quotes, to the end of its line; a
 * JavaScript line that starts with `//`, and block comments that start a line. Heredoc bodies and
 * multi-line strings are read as code: the rules match patterns, they do not parse.
 */
export function codeText(code: EntryCode): GoString {
  let s = strippedMemo.get(code)
  if (s === undefined) {
    s = strip(code)
    strippedMemo.set(code, s)
  }
  return s
}

function strip(code: EntryCode): GoString {
  const out: string[] = []
  let inBlock = false
  for (const [i, line] of code.raw.split('\n').entries()) {
    if (i === 0 && line.startsWith('#!')) {
      out.push(' '.repeat(line.length))
      continue
    }
    if (code.language !== 'node') {
      const cut = hashComment(line)
      out.push(cut < 0 ? line : line.slice(0, cut) + ' '.repeat(line.length - cut))
      continue
    }
    const t = line.trim()
    let blank: boolean
    if (inBlock) {
      blank = true
      if (t.includes('*/')) inBlock = false
    } else if (t.startsWith('/*')) {
      blank = true
      if (!t.includes('*/')) inBlock = true
    } else blank = t.startsWith('//')
    out.push(blank ? ' '.repeat(line.length) : line)
  }
  return out.join('\n')
}

/**
 * Scans text[start, end) of a shell or Python line as hashComment and inShellQuotes read it: quotes
 * (a backslash escapes outside single quotes), a backslash escaping the next byte outside quotes.
 * Stops at the first byte outside quotes for which `stop` holds. The quote open there (or at the
 * end), and where it stopped (end when it did not).
 */
function scanQuotes(
  text: GoString,
  start: number,
  end: number,
  stop: (i: number) => boolean = () => false,
): { quote: string; at: number } {
  let quote = ''
  for (let i = start; i < end; i++) {
    const c = text[i]
    if (quote !== '') {
      if (c === '\\' && quote !== "'") i++
      else if (c === quote) quote = ''
      continue
    }
    if (c === '\\') i++
    else if (c === '"' || c === "'") quote = c
    else if (stop(i)) return { quote, at: i }
  }
  return { quote, at: end }
}

/** Where a `#` comment starts on a shell or Python line (outside quotes, starting a word), or -1. */
function hashComment(line: GoString): number {
  const { at } = scanQuotes(
    line,
    0,
    line.length,
    (i) => line[i] === '#' && (i === 0 || /[\s;&|(]/.test(line[i - 1])),
  )
  return at < line.length ? at : -1
}

/** Whether byte `at` of a line of shell lies inside quotes (a rough scan, as hashComment's). */
export function inShellQuotes(text: GoString, at: number): boolean {
  return scanQuotes(text, text.lastIndexOf('\n', at - 1) + 1, at).quote !== ''
}

/**
 * The argument text of a call whose `(` is at `open`: up to its matching `)` (strings skipped
 * roughly), at most 4096 bytes; what is there when the call does not close in that.
 */
export function callArgs(text: GoString, open: number): GoString {
  let depth = 0
  let quote = ''
  const end = Math.min(text.length, open + 4096)
  for (let i = open; i < end; i++) {
    const c = text[i]
    if (quote !== '') {
      if (c === '\\') i++
      else if (c === quote) quote = ''
      continue
    }
    if (c === '"' || c === "'" || c === '`') quote = c
    else if (c === '(') depth++
    else if (c === ')' && --depth === 0) return text.slice(open + 1, i)
  }
  return text.slice(open + 1, end)
}

/** A finding's place in the entry: the report fields of byte offset `at`. */
export function placeIn(code: EntryCode, at: number) {
  return { at: null, file: code.file, fileKind: 'file' as const, ...code.lines.position(at) }
}

/** A piece of code for a message: one line, at most 60 characters. */
export function quoteCode(s: GoString): string {
  const one = toText(s).replace(/\s+/g, ' ').trim()
  return one.length > 60 ? `${one.slice(0, 57)}...` : one
}

/** What a pattern rule finds in the entry: where (a byte offset of the file) and what. */
export interface CodeHit {
  at: number
  message: string
  hint?: string
}

/** A rule over the entry's code: `find` gets the entry and its text without comments. */
export function entryRule(
  r: Omit<ManifestRule, 'check' | 'kind' | 'category'> & {
    find(code: EntryCode, text: GoString): CodeHit[]
  },
): ManifestRule {
  const { find, ...meta } = r
  return {
    ...meta,
    kind: 'manifest',
    category: 'best-practice',
    check(ctx, report) {
      const code = entryCode(ctx)
      if (code === null) return
      for (const h of find(code, codeText(code)))
        report({ ...placeIn(code, h.at), message: h.message, ...(h.hint ? { hint: h.hint } : {}) })
    },
  }
}

/** Every match of a global RegExp in the text, with the offset of its group `g` (default: the match). */
export function matchesOf(text: GoString, re: RegExp, g = 0): { at: number; m: RegExpExecArray }[] {
  const out: { at: number; m: RegExpExecArray }[] = []
  re.lastIndex = 0
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const at = g === 0 ? m.index : m.index + m[0].indexOf(m[g])
    out.push({ at, m })
    if (m[0] === '') re.lastIndex++
  }
  return out
}
