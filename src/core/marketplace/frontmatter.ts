/**
 * The chatruntime's agent and command files (agent_parser.go, command_parser.go, v0.13.4):
 * the same frontmatter split and yaml.v3 decoding as SKILL.md (core/native), into the Agent
 * struct and the command frontmatter. Imports the `yaml` package: loaded only when a pack
 * has agents/ or commands/.
 */
import { parseDocument } from 'yaml'
import { fromBuffer, type GoString, toText, trimSpace } from '../go/gostring.js'
import { readFile } from '../go/os/file.js'
import { base as baseName, ext } from '../go/path/filepath/path.js'
import { quote } from '../go/strconv/quote.js'
import { validString } from '../go/unicode/utf8.js'
import type { Decoded } from '../native/fields.js'
import { frontmatterError, normalizeSnakeName, unmarshalErrors } from '../native/skill-md.js'
import { splitFrontmatter } from '../native/split.js'
import { decodeDocument, type GoType, RAW_MAP_TYPE, SKILL_TYPE } from '../native/yaml-decode.js'
import type { LoadWarning } from './types.js'

const str: GoType = { k: 'string', name: 'string' }
const int: GoType = { k: 'int', name: 'int' }
const strings: GoType = { k: 'slice', name: '[]string', elem: str }
/** bool fields: decoded leniently here (their type errors are not reproduced). */
const boolish: GoType = { k: 'any', name: 'bool' }

const SKILL_METADATA = SKILL_TYPE.k === 'struct' ? SKILL_TYPE.fields.metadata : str

/** chatruntime.Agent with its yaml tags (types.go, v0.13.4). */
export const AGENT_TYPE: GoType = {
  k: 'struct',
  name: 'chatruntime.Agent',
  fields: {
    name: str,
    description: str,
    when_to_use: str,
    capabilities: {
      k: 'slice',
      name: '[]chatruntime.AgentCapability',
      elem: {
        k: 'struct',
        name: 'chatruntime.AgentCapability',
        fields: { id: str, description: str, tools: strings, skills: strings, max_tool_calls: int },
      },
    },
    can_delegate: boolish,
    tools: strings,
    disallowed_tools: strings,
    permission_mode: str,
    max_turns: int,
    model: str,
    critical_reminder: str,
    initial_prompt: str,
    background: boolish,
    omit_claude_md: boolish,
    metadata: SKILL_METADATA,
  },
}

export const COMMAND_TYPE: GoType = {
  k: 'struct',
  name: 'chatruntime.commandFrontmatter',
  fields: { description: str, 'allowed-tools': strings },
}

export interface FrontmatterParse {
  /** The manager's error text (byte string), or null. */
  error: GoString | null
  /** False when the error text is ours (YAML syntax errors are yaml.v3's words, not reproduced). */
  exact: boolean
  fields: Map<string, Decoded> | null
}

function stringOf(fields: Map<string, Decoded> | null, key: string): GoString {
  const d = fields?.get(key)
  return d?.k === 'string' ? d.value : ''
}

/** read, split, yaml.Unmarshal into `type` (then into a map when `raw`). */
function parseFrontmatterFile(
  path: GoString,
  type: GoType,
  raw: boolean,
): FrontmatterParse & { body: GoString } {
  const fail = (error: GoString, exact = true) => ({ error, exact, fields: null, body: '' })
  const file = readFile(path)
  if (!file.ok) return fail(`chatruntime: read ${path}: ${file.err.error()}`)
  const split = splitFrontmatter(fromBuffer(file.value))
  if (!split.ok) return fail(`chatruntime: ${path}: ${split.err}`)
  const fm = split.frontmatter ?? ''
  if (fm.length === 0) return { error: null, exact: true, fields: null, body: split.body }
  const yamlErr = `chatruntime: parse ${path} frontmatter: yaml: `
  if (!validString(fm)) return fail(`${yamlErr}invalid UTF-8 (yaml.v3's exact words not reproduced)`, false)
  const text = toText(fm)
  const doc = parseDocument(text, { schema: 'failsafe', uniqueKeys: false, strict: false })
  if (doc.errors.length > 0) {
    const msg = doc.errors[0].message.split('\n')[0]
    return fail(`${yamlErr}${msg} (yaml.v3's exact words not reproduced)`, false)
  }
  const starts = [0]
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
  const lineOf = (offset: number) => {
    let l = 0
    while (l + 1 < starts.length && starts[l + 1] <= offset) l++
    return l + 1
  }
  const typed = decodeDocument(doc, type, lineOf)
  const terr = typed.failure ?? (typed.terrors.length > 0 ? unmarshalErrors(typed.terrors) : null)
  if (terr !== null) return fail(frontmatterError(path, terr, false))
  if (raw) {
    const m = decodeDocument(doc, RAW_MAP_TYPE, lineOf)
    const rerr = m.failure ?? (m.terrors.length > 0 ? unmarshalErrors(m.terrors) : null)
    if (rerr !== null) return fail(frontmatterError(path, rerr, true))
  }
  const fields = typed.value?.k === 'fields' ? typed.value.fields : new Map<string, Decoded>()
  return { error: null, exact: true, fields, body: split.body }
}

const SNAKE = /^[a-z0-9][a-z0-9_]*$/

export interface AgentParse {
  name: GoString | null
  error: GoString | null
  exact: boolean
  warnings: LoadWarning[]
}

/** ParseAgentMd(path). */
export function parseAgentMd(path: GoString): AgentParse {
  const p = parseFrontmatterFile(path, AGENT_TYPE, true)
  if (p.error !== null) return { name: null, error: p.error, exact: p.exact, warnings: [] }
  const name = stringOf(p.fields, 'name')
  for (const f of ['name', 'description', 'when_to_use']) {
    if (trimSpace(stringOf(p.fields, f)) === '') {
      return {
        name: null,
        error: `chatruntime: ${path}: frontmatter missing required field '${f}'`,
        exact: true,
        warnings: [],
      }
    }
  }
  const warnings: LoadWarning[] = []
  if (!SNAKE.test(name)) {
    warnings.push({
      path,
      code: 'name_non_snake',
      reason: `agent name ${quote(name)} is not snake_case (recommends underscores)`,
    })
  }
  return { name, error: null, exact: true, warnings }
}

export interface CommandParse {
  /** The keyword skill's name (`cmd_…`). */
  name: GoString | null
  error: GoString | null
  exact: boolean
  warnings: LoadWarning[]
}

/** ConvertCommandFile(path). */
export function convertCommandFile(path: GoString): CommandParse {
  if (ext(path).toLowerCase() !== '.md') {
    return {
      name: null,
      error: `chatruntime: ${path}: command file must end in .md`,
      exact: true,
      warnings: [],
    }
  }
  const p = parseFrontmatterFile(path, COMMAND_TYPE, false)
  if (p.error !== null) return { name: null, error: p.error, exact: p.exact, warnings: [] }
  const file = baseName(path)
  const base = trimSpace(file.slice(0, file.length - ext(path).length))
  if (base === '') {
    return {
      name: null,
      error: `chatruntime: ${path}: command file has empty basename`,
      exact: true,
      warnings: [],
    }
  }
  const name = `cmd_${SNAKE.test(base) ? base : normalizeSnakeName(base)}`
  const warnings: LoadWarning[] = []
  if (trimSpace(stringOf(p.fields, 'description')) === '') {
    warnings.push({
      path,
      code: 'command_missing_description',
      reason: `command ${quote(base)} has no frontmatter description; using a generated default`,
    })
  }
  return { name, error: null, exact: true, warnings }
}
