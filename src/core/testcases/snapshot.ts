import { realpathSync, statSync } from 'node:fs'
import { type FileIdentity, identityOf, writeFileAtomic } from '../atomic-write.js'
import { fromText, type GoString, toText } from '../go/gostring.js'
import { stringify } from '../json-text.js'
import { type JNode, type JObject, lastMember, parseTree, TooDeepError } from '../json-tree.js'
import { sizeText, TooLargeError } from '../read-bounded.js'
import { MAX_CASE_FILE, readCaseBytes } from './cases.js'

export interface SnapshotUpdate {
  /** The case's index in its file (null: the file holds one case). */
  index: number | null
  result: unknown
}

interface Edit {
  start: number
  end: number
  text: GoString
}

/**
 * `--update`: writes each snapshot case's actual result into `expect.result` of its case
 * file, as an edit of the file's own text: only that value changes (or the member is added),
 * so the rest (formatting, key order, numbers as written, the other cases and keys) stays
 * byte for byte. New text follows the file's indentation, line endings and layout (one line
 * stays one line). The file is written by `core/atomic-write.ts` (never half-written; mode,
 * owner, group and hard links kept); a symlinked case file is written where it points. The
 * file must still hold the text the run read (`text`), and be the same file until the new
 * text replaces it, or nothing is written (an Error); a new text over MAX_CASE_FILE, which the
 * next run could not read, is not written either.
 */
export function writeSnapshots(file: string, text: string, updates: SnapshotUpdate[]): void {
  const target = realpathSync(file)
  const was = identityOf(statSync(target))
  if (readCaseBytes(target).toString('utf8') !== text) throw changed(file)
  const replaceFile = (t: string, newText: string) => replace(file, t, newText, was)
  const data = fromText(text)
  let root: JNode
  try {
    root = parseTree(data)
  } catch (e) {
    if (!(e instanceof TooDeepError)) throw e
    // Nested past what the text editor analyses (Go allows 10000 levels): the file is
    // rewritten whole instead, its values kept, two-space indentation.
    replaceFile(target, `${stringify(rewritten(text, updates), 2)}\n`)
    return
  }
  const style = styleOf(text)
  const edits: Edit[] = []
  for (const u of updates) {
    const c = u.index === null ? root : root.kind === 'array' ? root.items[u.index] : undefined
    if (c?.kind !== 'object') continue
    const expect = lastMember(c, fromText('expect'))
    if (expect === undefined) {
      edits.push(
        addMember(data, c, 'expect', (ind, multi) => render({ result: u.result }, ind, multi, style), style),
      )
      continue
    }
    if (expect.value.kind !== 'object') continue
    const result = lastMember(expect.value, fromText('result'))
    if (result === undefined) {
      edits.push(
        addMember(data, expect.value, 'result', (ind, multi) => render(u.result, ind, multi, style), style),
      )
      continue
    }
    const multi = spansLines(data, expect.value)
    edits.push({
      start: result.value.start,
      end: result.value.end,
      text: fromText(render(u.result, lineIndent(data, result.keyStart), multi, style)),
    })
  }
  let out: string = data
  for (const e of edits.sort((a, b) => b.start - a.start))
    out = out.slice(0, e.start) + e.text + out.slice(e.end)
  replaceFile(target, toText(out))
}

/** The case file's value with each update's result set (JSON.parse does not recurse). */
function rewritten(text: string, updates: SnapshotUpdate[]): unknown {
  const doc = JSON.parse(text) as unknown
  for (const u of updates) {
    const c = (u.index === null ? doc : (doc as unknown[])[u.index]) as Record<string, unknown>
    const expect = (c.expect ?? {}) as Record<string, unknown>
    expect.result = u.result
    c.expect = expect
  }
  return doc
}

const changed = (file: string) =>
  new Error(`${file}: changed during the run; its snapshots were not written (run --update again)`)

/** Writes `text` over `target` if it is still the file read (`was`). */
function replace(file: string, target: string, text: string, was: FileIdentity): void {
  let r: ReturnType<typeof writeFileAtomic>
  try {
    r = writeFileAtomic(target, text, { expect: was, maxBytes: MAX_CASE_FILE })
  } catch (e) {
    if (!(e instanceof TooLargeError)) throw e
    throw new Error(
      `${file}: with its snapshots it would be larger than ${sizeText(MAX_CASE_FILE)}, more than a case file may hold; not written`,
    )
  }
  if (!r.written) throw changed(file)
}

interface Style {
  /** One level of indentation. */
  unit: string
  eol: string
  /** Between a key and its value, and after a comma, on one line. */
  colon: string
  comma: string
}

function styleOf(text: string): Style {
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  let unit = '  '
  let min = Number.POSITIVE_INFINITY
  for (const m of text.matchAll(/\n([ \t]+)\S/g)) {
    if (m[1].startsWith('\t')) {
      unit = '\t'
      break
    }
    if (m[1].length < min) {
      min = m[1].length
      unit = m[1]
    }
  }
  return {
    unit,
    eol,
    colon: /"\s*:\s/.test(text) || !/"\s*:/.test(text) ? ': ' : ':',
    comma: /,[ \t]/.test(text) ? ', ' : ',',
  }
}

const spansLines = (data: GoString, n: JNode) => data.slice(n.start, n.end).includes('\n')

/** The white space that starts the line holding `at`. */
function lineIndent(data: GoString, at: number): string {
  const lineStart = data.lastIndexOf('\n', at - 1) + 1
  return /^[ \t]*/.exec(data.slice(lineStart, at))?.[0] ?? ''
}

/** A value as text: pretty, its later lines indented under `indent`, or on one line. */
function render(v: unknown, indent: string, multi: boolean, s: Style): string {
  try {
    return renderStyled(v, indent, multi, s)
  } catch (e) {
    if (!(e instanceof RangeError)) throw e
    // A result too deep to write recursively: the same value, in the iterative writer's layout.
    return stringify(v, multi ? 2 : 0)
      .split('\n')
      .join(s.eol + indent)
  }
}

function renderStyled(v: unknown, indent: string, multi: boolean, s: Style): string {
  if (multi)
    return JSON.stringify(v, null, s.unit)
      .split('\n')
      .join(s.eol + indent)
  const one = (x: unknown): string => {
    if (Array.isArray(x)) return `[${x.map(one).join(s.comma)}]`
    if (typeof x === 'object' && x !== null)
      return `{${Object.entries(x)
        .map(([k, y]) => `${JSON.stringify(k)}${s.colon}${one(y)}`)
        .join(s.comma)}}`
    return JSON.stringify(x)
  }
  return one(v)
}

/** Adds `"key": value` as the object's last member, laid out as the object is. */
function addMember(
  data: GoString,
  o: JObject,
  key: string,
  value: (indent: string, multi: boolean) => string,
  s: Style,
): Edit {
  const multi = spansLines(data, o)
  const last = o.members.at(-1)
  if (last === undefined) {
    // `{}`: the object's own line decides, its members one level in.
    const outer = lineIndent(data, o.start)
    const text = multi
      ? `{${s.eol}${outer}${s.unit}${JSON.stringify(key)}${s.colon}${value(outer + s.unit, true)}${s.eol}${outer}}`
      : `{${JSON.stringify(key)}${s.colon}${value('', false)}}`
    return { start: o.start, end: o.end, text: fromText(text) }
  }
  if (multi) {
    const indent = lineIndent(data, last.keyStart)
    return {
      start: last.value.end,
      end: last.value.end,
      text: fromText(`,${s.eol}${indent}${JSON.stringify(key)}${s.colon}${value(indent, true)}`),
    }
  }
  return {
    start: last.value.end,
    end: last.value.end,
    text: fromText(`${s.comma}${JSON.stringify(key)}${s.colon}${value('', false)}`),
  }
}
