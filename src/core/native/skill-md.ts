/**
 * ParseSkillMd of the manager's chatruntime (skill_parser.go, v0.13.4; research note §3):
 * read, split the frontmatter, yaml.v3 into chatruntime.Skill (then into map[string]any),
 * required `name` / `description`, the name rule with its normalisation warning, and the
 * activation reconciliation. Loads the yaml.v3 port (core/go/yaml): import this module lazily.
 */
import { ok } from '../go/errors.js'
import { fromBuffer, type GoString, toText, trimSpace } from '../go/gostring.js'
import { readFile } from '../go/os/file.js'
import { quote } from '../go/strconv/quote.js'
import { lineAt, lineStarts } from '../line-starts.js'
import type { Overlay } from '../overlay.js'
import { type Decoded, stringField } from './fields.js'
import { normalizeSnakeName } from './snake-name.js'
import { type Split, splitFrontmatter } from './split.js'
import { decodeNode, parseFrontmatterYaml, RAW_MAP_TYPE, SKILL_TYPE } from './yaml-decode.js'

export type NativeStage = 'read' | 'split' | 'yaml' | 'yaml-type' | 'missing-name' | 'missing-description'

export interface Where {
  line: number
  column: number
}

export interface NativeError extends Where {
  stage: NativeStage
  /** The manager's error text (a byte string). */
  message: string
  /** True when `message` is the manager's own text. */
  exact: boolean
}

export interface NativeWarning extends Where {
  code: 'name_normalized' | 'activation_conflict'
  /** The LoadWarning's Reason (a byte string). */
  reason: GoString
}

export interface NativeParse {
  raw: GoString | null
  split: Split | null
  error: NativeError | null
  warnings: NativeWarning[]
  /** The decoded chatruntime.Skill fields (when the YAML decoded), for best-practice rules. */
  skill: Map<string, Decoded> | null
  /** File position of an offset in the frontmatter text. */
  pos: (offset: number) => Where
  /** File position of the opening `---` (or 1:1). */
  top: Where
}

const SKILL_NAME = /^[a-z0-9][a-z0-9_]*$/

export { normalizeSnakeName }

/** ParseSkillMd(path), with positions for every outcome (an editor's buffer when `overlay` holds one). */
export function parseSkillMd(path: GoString, overlay?: Overlay): NativeParse {
  const top: Where = { line: 1, column: 1 }
  const result: NativeParse = {
    raw: null,
    split: null,
    error: null,
    warnings: [],
    skill: null,
    pos: () => top,
    top,
  }
  const fail = (stage: NativeStage, message: string, at: Where, exact = true) => {
    result.error = { stage, message, exact, ...at }
    return result
  }
  const buffer = overlay?.get(path)
  const file = buffer === undefined ? readFile(path) : ok(buffer)
  if (!file.ok) return fail('read', `chatruntime: read ${path}: ${file.err.error()}`, top)
  const raw = fromBuffer(file.value)
  result.raw = raw
  const split = splitFrontmatter(raw)
  result.split = split
  if (!split.ok) return fail('split', `chatruntime: ${path}: ${split.err}`, { line: split.line, column: 1 })
  if (split.openLine > 0) result.top = { line: split.openLine, column: 1 }
  const fm = split.frontmatter ?? ''
  const text = toText(fm)
  // Offsets in the YAML text → file line:column (the frontmatter starts on the line after `---`;
  // columns count code points, and only a trailing CR was removed from each line).
  const starts = lineStarts(text)
  const lineOf = (offset: number): number => lineAt(starts, offset) + 1
  result.pos = (offset: number) => {
    const l = lineOf(offset)
    return { line: split.openLine + l, column: [...text.slice(starts[l - 1], offset)].length + 1 }
  }
  let skill: Map<string, Decoded> | null = null
  if (fm.length > 0) {
    const parsed = parseFrontmatterYaml(fm)
    if (parsed.syntax !== null) {
      const m = parsed.syntax.mark
      return fail(
        'yaml',
        frontmatterError(path, parsed.syntax.message, false),
        m === null ? result.top : result.pos(parsed.offsetOf(m.index)),
        true,
      )
    }
    const doc = parsed.root
    const at = parsed.at
    const typed = decodeNode(doc, SKILL_TYPE, at)
    if (typed.panic !== null) return fail('yaml-type', panicText(path, typed.panic), result.top, false)
    const typedErr = typed.failure ?? (typed.terrors.length > 0 ? unmarshalErrors(typed.terrors) : null)
    if (typedErr !== null) {
      return fail(
        'yaml-type',
        frontmatterError(path, typedErr, false),
        firstLine(typed.terrors, result),
        true,
      )
    }
    const rawMap = decodeNode(doc, RAW_MAP_TYPE, at)
    if (rawMap.panic !== null) return fail('yaml-type', panicText(path, rawMap.panic), result.top, false)
    const rawErr = rawMap.failure ?? (rawMap.terrors.length > 0 ? unmarshalErrors(rawMap.terrors) : null)
    if (rawErr !== null) {
      return fail('yaml-type', frontmatterError(path, rawErr, true), firstLine(rawMap.terrors, result), true)
    }
    skill = typed.value?.k === 'fields' ? typed.value.fields : new Map()
  }
  result.skill = skill
  const name = stringField(skill, 'name')
  const description = stringField(skill, 'description')
  const at = (d: Decoded | undefined): Where => (d ? result.pos(d.at) : result.top)
  if (trimSpace(name?.value ?? '') === '') {
    return fail('missing-name', `chatruntime: ${path}: frontmatter missing required field 'name'`, at(name))
  }
  if (trimSpace(description?.value ?? '') === '') {
    return fail(
      'missing-description',
      `chatruntime: ${path}: frontmatter missing required field 'description'`,
      at(description),
    )
  }
  const nameValue = name?.value ?? ''
  if (!SKILL_NAME.test(nameValue)) {
    result.warnings.push({
      code: 'name_normalized',
      reason: `name ${quote(nameValue)} is not snake_case; normalized to ${quote(normalizeSnakeName(nameValue))}`,
      ...at(name),
    })
  }
  const ongridMode = stringField(skill, 'metadata', 'ongrid', 'activation', 'mode')
  const topMode = stringField(skill, 'activation', 'mode')
  if (
    ongridMode &&
    ongridMode.value !== '' &&
    topMode &&
    topMode.value !== '' &&
    ongridMode.value !== topMode.value
  ) {
    result.warnings.push({
      code: 'activation_conflict',
      reason:
        'both top-level activation and metadata.ongrid.activation are set; using metadata.ongrid.activation',
      ...at(ongridMode),
    })
  }
  return result
}

/** yaml.TypeError.Error() */
export function unmarshalErrors(terrors: string[]): string {
  return `yaml: unmarshal errors:\n  ${terrors.join('\n  ')}`
}

/** Ours: yaml.v3 panics instead of returning an error (the manager's parsers do not recover). */
export function panicText(path: GoString, panic: string): string {
  return `chatruntime: parse ${path} frontmatter: yaml.v3 panics (${panic}): the manager does not recover, so the load aborts instead of failing with an error (not the manager's text)`
}

/** chatruntime's error for frontmatter that does not decode (raw: the second, map-typed decode). */
export function frontmatterError(path: GoString, err: string, raw: boolean): string {
  return `chatruntime: parse ${path} frontmatter${raw ? ' (raw)' : ''}: ${err}`
}

function firstLine(terrors: string[], r: NativeParse): Where {
  const m = /^line (\d+):/.exec(terrors[0] ?? '')
  if (!m) return r.top
  return { line: r.top.line + Number(m[1]), column: 1 }
}
