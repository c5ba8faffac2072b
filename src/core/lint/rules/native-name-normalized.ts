import { fromText, type GoString, toText } from '../../go/gostring.js'
import { FoldedStyle, Kind, LiteralStyle, type Node, TaggedStyle } from '../../go/yaml/node.js'
import type { NativeParse } from '../../native/skill-md.js'
import { normalizeSnakeName } from '../../native/snake-name.js'
import { parseFrontmatterYaml } from '../../native/yaml-decode.js'
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

/** The name as a YAML scalar: plain when it reads back as that string, else double-quoted. */
function scalar(name: GoString): GoString {
  return /^[a-z_][a-z0-9_]*$/.test(name) && !['null', 'true', 'false'].includes(name) ? name : `"${name}"`
}

/** The root mapping's value node for `key` (the frontmatter's top level), or null. */
function topValue(root: Node | null, key: string): Node | null {
  const map = root?.content[0]
  if (map?.kind !== Kind.Mapping) return null
  for (let i = 0; i + 1 < map.content.length; i += 2)
    if (map.content[i].kind === Kind.Scalar && map.content[i].value === key) return map.content[i + 1]
  return null
}

/** Whether two trees read the same (kind, tag, style, value, anchor, children), `skip` aside. */
function sameTree(a: Node, b: Node, skip: Node): boolean {
  const stack: [Node, Node][] = [[a, b]]
  for (let p = stack.pop(); p !== undefined; p = stack.pop()) {
    const [x, y] = p
    if (x === skip) continue
    if (x.kind !== y.kind || x.tag !== y.tag || x.style !== y.style || x.value !== y.value) return false
    if (x.anchor !== y.anchor || x.content.length !== y.content.length) return false
    for (let i = 0; i < x.content.length; i++) stack.push([x.content[i], y.content[i]])
  }
  return true
}

/**
 * Pure fixer: the edit that writes, in a SKILL.md's bytes, the frontmatter's `name` scalar as the
 * manager normalises it (the name it registers the skill under). The scalar's extent is yaml.v3's
 * own (the port's event marks): a plain, 'single' or "double" quoted scalar in a block or a flow
 * mapping (`{name: Disk-Free, description: …}`), on one line or several. A block scalar, an anchor,
 * a tag or an alias is left to the author; so is any edit after which the frontmatter would not
 * read as before with only the name changed (checked by parsing it again).
 */
export function fixSkillName(raw: GoString, parse: NativeParse): TextEdit | null {
  const split = parse.split
  if (split === null || !split.ok || !split.frontmatter) return null
  const fm = split.frontmatter
  const before = parseFrontmatterYaml(fm)
  const node = topValue(before.root, 'name')
  if (node === null || node.kind !== Kind.Scalar || node.anchor !== '') return null
  if ((node.style & (TaggedStyle | LiteralStyle | FoldedStyle)) !== 0) return null
  const name = scalar(normalizeSnakeName(node.value))
  // The scalar's extent in the frontmatter text, then in the file (only a trailing CR was removed
  // from each line of the frontmatter: line and column are the file's).
  const at = (index: number) => {
    const p = parse.pos(before.offsetOf(index))
    return offsetOf(raw, p.line, p.column)
  }
  const start = at(node.index)
  const end = at(node.endIndex)
  if (start < 0 || end < start) return null
  // The same edit in the frontmatter, parsed again: only the name may have changed.
  const text = toText(fm)
  const edited = fromText(
    text.slice(0, before.offsetOf(node.index)) + toText(name) + text.slice(before.offsetOf(node.endIndex)),
  )
  const after = parseFrontmatterYaml(edited)
  const renamed = topValue(after.root, 'name')
  if (after.root === null || before.root === null || renamed?.value !== normalizeSnakeName(node.value))
    return null
  if (!sameTree(before.root, after.root, node) || renamed.kind !== Kind.Scalar) return null
  return { range: [start, end], text: name }
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
    bad: [
      { files: skillMd('---\nname: Disk-Free\ndescription: Reports free space.\n---\n') },
      { files: skillMd('---\n{name: Disk-Free, description: Reports free space.}\n---\n') },
    ],
    good: [{ files: SKILL_MD }],
  },
  code: 'name_normalized',
  fix(ctx) {
    const name = ctx.parse?.skill?.get('name')
    if (name?.k !== 'string' || ctx.parse === null) return null
    const edit = fixSkillName(ctx.raw, ctx.parse)
    return edit ? { edits: [edit] } : null
  },
})
