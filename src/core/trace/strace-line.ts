/**
 * strace's lines (as `strace -f -ttt -y -qq -e signal=none` writes them) into system call records:
 * `PID SECONDS.MICROS name(args) = ret [ERRNO (text)]`, with a call that another process
 * interrupted (`name(args <unfinished ...>`) joined to its end (`<... name resumed>args) = ret`).
 * Only the shape is read here; what a call means is effects.ts's concern.
 */

export interface SyscallRecord {
  pid: number
  /** Seconds since the epoch, as strace's -ttt gives them. */
  time: number
  name: string
  /** The arguments as strace printed them, split at the top level. */
  args: string[]
  /** The return value as printed (`0`, `3</tmp/x>`, `-1`, `?`). */
  ret: string
  /** The errno name of a failed call (`ENOENT`), else null. */
  errno: string | null
}

const HEAD = /^(\d+) +(\d+\.\d+) (.*)$/
const RESUMED = /^<\.\.\. ([a-z0-9_]+) resumed>(.*)$/
const UNFINISHED = ' <unfinished ...>'

/** Splits a trace into records, joining interrupted calls; other lines (signals, exits) are skipped. */
export class StraceParser {
  private readonly pending = new Map<number, { time: number; text: string }>()
  readonly records: SyscallRecord[] = []
  /** Lines that could not be read (a line cut by the trace's bound, an unknown shape). */
  unreadable = 0

  line(raw: string): void {
    const m = HEAD.exec(raw)
    if (m === null) {
      if (raw.trim() !== '') this.unreadable++
      return
    }
    const pid = Number(m[1])
    const time = Number(m[2])
    let text = m[3]
    if (text.startsWith('+++') || text.startsWith('---')) return
    const resumed = RESUMED.exec(text)
    if (resumed !== null) {
      const start = this.pending.get(pid)
      this.pending.delete(pid)
      if (start === undefined) {
        this.unreadable++
        return
      }
      this.finish(pid, start.time, start.text + resumed[2])
      return
    }
    if (text.endsWith(UNFINISHED)) {
      text = text.slice(0, -UNFINISHED.length)
      this.pending.set(pid, { time, text })
      return
    }
    this.finish(pid, time, text)
  }

  /** Calls still unfinished at the end (the process was killed in them): kept with ret `?`. */
  end(): SyscallRecord[] {
    for (const [pid, p] of this.pending) {
      const r = parseCall(pid, p.time, `${p.text}) = ?`)
      if (r !== null) this.records.push(r)
    }
    this.pending.clear()
    return this.records
  }

  private finish(pid: number, time: number, text: string): void {
    const r = parseCall(pid, time, text)
    if (r === null) this.unreadable++
    else this.records.push(r)
  }
}

/** Parses a whole trace text. */
export function parseTrace(text: string): { records: SyscallRecord[]; unreadable: number } {
  const p = new StraceParser()
  for (const l of text.split('\n')) p.line(l)
  const records = p.end()
  return { records, unreadable: p.unreadable }
}

/** `name(args) = ret [ERRNO (text)]` into a record, or null when it is not that shape. */
export function parseCall(pid: number, time: number, text: string): SyscallRecord | null {
  const open = text.indexOf('(')
  if (open <= 0) return null
  const name = text.slice(0, open)
  if (!/^[a-z0-9_]+$/.test(name)) return null
  const split = splitArgs(text, open + 1)
  if (split === null) return null
  const rest = text.slice(split.end + 1)
  const r = /^ *= (\S+)(?: (E[A-Z0-9]+) \(.*\))?/.exec(rest)
  if (r === null) return null
  return { pid, time, name, args: split.args, ret: r[1], errno: r[2] ?? null }
}

/** The top-level arguments from `from` up to the matching `)`, and that paren's index. */
function splitArgs(text: string, from: number): { args: string[]; end: number } | null {
  const args: string[] = []
  let depth = 0
  let start = from
  let i = from
  while (i < text.length) {
    const c = text[i]
    if (c === '"') {
      i = skipString(text, i)
      continue
    }
    if (c === '<' && i > from && /[0-9D]/.test(text[i - 1])) {
      // A -y decoration (`3</path>`, `AT_FDCWD</dir>`): its text may hold anything but `>` unescaped.
      i = skipDecoration(text, i)
      continue
    }
    if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2)
      i = close < 0 ? text.length : close + 2
      continue
    }
    if (c === '(' || c === '[' || c === '{') depth++
    else if (c === ']' || c === '}') depth--
    else if (c === ')') {
      if (depth === 0) {
        const last = text.slice(start, i).trim()
        if (last !== '' || args.length > 0) args.push(last)
        return { args, end: i }
      }
      depth--
    } else if (c === ',' && depth === 0) {
      args.push(text.slice(start, i).trim())
      start = i + 1
    }
    i++
  }
  return null
}

function skipString(text: string, at: number): number {
  let i = at + 1
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1
  i++
  // A string cut at strace's -s length is followed by `...`.
  if (text.startsWith('...', i)) i += 3
  return i
}

function skipDecoration(text: string, at: number): number {
  let i = at + 1
  while (i < text.length && text[i] !== '>') i += text[i] === '\\' ? 2 : 1
  return i + 1
}

/** A C string literal as strace prints it (`"a\nb"`, `"\x7f"`, `"\303\251"`), as text; null if not one. */
export function cString(arg: string): string | null {
  if (!arg.startsWith('"')) return null
  const end = skipString(arg, 0)
  const body = arg.slice(1, arg.endsWith('...') ? end - 4 : end - 1)
  return cUnescape(body)
}

/** The path of a -y decoration (`3</tmp/x>` → `/tmp/x`), or null. */
export function decoration(arg: string): string | null {
  const at = arg.indexOf('<')
  if (at < 0 || !arg.endsWith('>')) return null
  return cUnescape(arg.slice(at + 1, -1))
}

const SIMPLE: Record<string, number> = { n: 10, t: 9, r: 13, v: 11, f: 12, '\\': 92, '"': 34, "'": 39 }

function cUnescape(s: string): string {
  if (!s.includes('\\')) return s
  const bytes: number[] = []
  for (let i = 0; i < s.length; i++) {
    const c = s[i]
    if (c !== '\\') {
      for (const b of Buffer.from(c, 'utf8')) bytes.push(b)
      continue
    }
    const n = s[i + 1]
    if (n in SIMPLE) {
      bytes.push(SIMPLE[n])
      i++
    } else if (n === 'x') {
      bytes.push(Number.parseInt(s.slice(i + 2, i + 4), 16))
      i += 3
    } else if (n !== undefined && /[0-7]/.test(n)) {
      const oct = /^[0-7]{1,3}/.exec(s.slice(i + 1))![0]
      bytes.push(Number.parseInt(oct, 8))
      i += oct.length
    } else bytes.push(92)
  }
  return Buffer.from(bytes).toString('utf8')
}

/** An array literal of strings (execve's argv): its elements, and whether strace cut it. */
export function stringArray(arg: string): { items: string[]; cut: boolean } {
  const items: string[] = []
  let cut = false
  if (!arg.startsWith('[')) return { items, cut: true }
  let i = 1
  while (i < arg.length) {
    const c = arg[i]
    if (c === '"') {
      const end = skipString(arg, i)
      const s = cString(arg.slice(i, end))
      if (s !== null) items.push(s)
      if (arg.slice(i, end).endsWith('...')) cut = true
      i = end
    } else if (c === '.' && arg.startsWith('...', i)) {
      cut = true
      i += 3
    } else i++
  }
  return { items, cut }
}
