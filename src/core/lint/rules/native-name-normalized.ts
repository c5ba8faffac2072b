import type { GoString } from '../../go/gostring.js'
import { normalizeSnakeName } from '../../native/snake-name.js'
import { SKILL_MD, skillMd } from '../rule-kit/examples.js'
import { nativeWarningRule } from '../rule-kit/families.js'
import type { TextEdit } from '../types.js'

/** Byte offset of a 1-based line:column (columns count code points), or -1 past the line. */
function offsetOf(raw: GoString, line: number, column: number): number {
  let at = 0
  for (let l = 1; l < line; l++) {
    at = raw.indexOf('\n', at) + 1
    if (at === 0) return -1
  }
  for (let c = 1; c < column; c++) {
    if (at >= raw.length || raw[at] === '\n') return -1
    at++
    while (at < raw.length && (raw.charCodeAt(at) & 0xc0) === 0x80) at++
  }
  return at
}

const indentOf = (line: string) => /^[ \t]*/.exec(line)?.[0].length ?? 0

/** The name as a YAML scalar: plain when it reads back as that string, else double-quoted. */
function scalar(name: GoString): GoString {
  return /^[a-z_][a-z0-9_]*$/.test(name) && !['null', 'true', 'false'].includes(name) ? name : `"${name}"`
}

/**
 * Pure fixer: the edit that writes, in a SKILL.md's bytes, the name scalar starting at line:column
 * as the manager normalises it (the name it registers the skill under). Only a scalar on one
 * line: plain (up to a ` #` comment), 'single' or "double" quoted; anything else (a block scalar,
 * an anchor, a tag, a plain scalar continued on the next line) is left to the author.
 */
export function fixSkillName(raw: GoString, line: number, column: number, name: GoString): TextEdit | null {
  const start = offsetOf(raw, line, column)
  if (start < 0) return null
  let eol = raw.indexOf('\n', start)
  if (eol < 0) eol = raw.length
  const rest = raw.slice(start, eol)
  let end: number
  if (rest[0] === '"' || rest[0] === "'") {
    const q = rest[0]
    let i = 1
    for (; i < rest.length; i++) {
      if (q === '"' && rest[i] === '\\') i++
      else if (rest[i] === q) {
        if (q === "'" && rest[i + 1] === "'") i++
        else break
      }
    }
    if (i >= rest.length) return null
    end = start + i + 1
  } else {
    if (/^[|>&!*]/.test(rest)) return null
    const comment = rest.search(/[ \t]#/)
    const text = (comment < 0 ? rest : rest.slice(0, comment)).replace(/[ \t\r]+$/, '')
    if (text === '') return null
    end = start + text.length
    // A plain scalar continued on the next line (indented deeper than its key's line).
    const lineStart = raw.lastIndexOf('\n', start - 1) + 1
    const next = raw.slice(eol + 1, raw.indexOf('\n', eol + 1) < 0 ? raw.length : raw.indexOf('\n', eol + 1))
    if (
      eol < raw.length &&
      /\S/.test(next) &&
      !/^\s*#/.test(next) &&
      indentOf(next) > indentOf(raw.slice(lineStart, eol))
    )
      return null
  }
  return { range: [start, end], text: scalar(normalizeSnakeName(name)) }
}

export default nativeWarningRule({
  id: 'native/name-normalized',
  severity: 'warn',
  docs: 'The name is not snake_case: the manager loads the skill under a normalised name, with a warning.',
  fixSafety: {
    safe: true,
    because:
      'the manager already registers the skill under the normalised name; the fix writes that name, so the warning at each load goes away and nothing else changes.',
  },
  examples: {
    bad: [{ files: skillMd('---\nname: Disk-Free\ndescription: Reports free space.\n---\n') }],
    good: [{ files: SKILL_MD }],
  },
  code: 'name_normalized',
  fix(ctx, w) {
    const name = ctx.parse?.skill?.get('name')
    if (name?.k !== 'string') return null
    const edit = fixSkillName(ctx.raw, w.line, w.column, name.value)
    return edit ? { edits: [edit] } : null
  },
})
