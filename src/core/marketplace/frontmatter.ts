/**
 * The chatruntime's agent and command files (agent_parser.go, command_parser.go, v0.13.4; the
 * Agent struct's fields per release, core/releases):
 * the same frontmatter split and yaml.v3 decoding as SKILL.md (core/native), into the Agent
 * struct and the command frontmatter. Loads the yaml.v3 port: imported only when a pack
 * has agents/ or commands/.
 */
import { fromBuffer, type GoString, trimSpace } from '../go/gostring.js'
import { base as baseName, ext } from '../go/path/filepath/path.js'
import { quote } from '../go/strconv/quote.js'
import type { Decoded } from '../native/fields.js'
import { frontmatterError, normalizeSnakeName, panicText, unmarshalErrors } from '../native/skill-md.js'
import { splitFrontmatter } from '../native/split.js'
import {
  decodeNode,
  type GoType,
  parseFrontmatterYaml,
  RAW_MAP_TYPE,
  SKILL_TYPE,
} from '../native/yaml-decode.js'
import { managerRelease, type Release } from '../releases/release.js'
import { readPackFile } from './pack-read.js'
import type { LoadWarning } from './types.js'

const str: GoType = { k: 'string', name: 'string' }
const int: GoType = { k: 'int', name: 'int' }
const strings: GoType = { k: 'slice', name: '[]string', elem: str }
const bool: GoType = { k: 'bool', name: 'bool' }

const SKILL_METADATA = SKILL_TYPE.k === 'struct' ? SKILL_TYPE.fields.metadata : str

/**
 * Every yaml tag chatruntime.Agent has had, with its type, in the struct's order (types.go); a
 * release decodes the ones its facts list (core/releases), the others are unknown fields to it.
 */
const AGENT_FIELD_TYPES: Record<string, GoType> = {
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
  can_delegate: bool,
  tools: strings,
  disallowed_tools: strings,
  permission_mode: str,
  max_turns: int,
  model: str,
  critical_reminder: str,
  initial_prompt: str,
  background: bool,
  omit_claude_md: bool,
  metadata: SKILL_METADATA,
}

const agentTypes = new Map<Release, GoType>()

/** chatruntime.Agent with its yaml tags at this release. */
function agentType(release: Release): GoType {
  let t = agentTypes.get(release)
  if (t === undefined) {
    for (const k of release.agentFields) {
      if (!(k in AGENT_FIELD_TYPES))
        throw new Error(`chatruntime.Agent of ${release.version}: no type for ${k}`)
    }
    const fields = Object.fromEntries(
      Object.entries(AGENT_FIELD_TYPES).filter(([k]) => release.agentFields.has(k)),
    )
    t = { k: 'struct', name: 'chatruntime.Agent', fields }
    agentTypes.set(release, t)
  }
  return t
}

export const COMMAND_TYPE: GoType = {
  k: 'struct',
  name: 'chatruntime.commandFrontmatter',
  fields: { description: str, 'allowed-tools': strings },
}

export interface FrontmatterParse {
  /** The manager's error text (byte string), or null. */
  error: GoString | null
  /** False when the error text is ours (yaml.v3 panics instead of returning an error). */
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
  const file = readPackFile(path)
  if (!file.ok) return fail(`chatruntime: read ${path}: ${file.err.error()}`)
  const split = splitFrontmatter(fromBuffer(file.value))
  if (!split.ok) return fail(`chatruntime: ${path}: ${split.err}`)
  const fm = split.frontmatter ?? ''
  if (fm.length === 0) return { error: null, exact: true, fields: null, body: split.body }
  const parsed = parseFrontmatterYaml(fm)
  if (parsed.syntax !== null) return fail(`chatruntime: parse ${path} frontmatter: ${parsed.syntax.message}`)
  const doc = parsed.root
  const typed = decodeNode(doc, type, parsed.at)
  if (typed.panic !== null) return fail(panicText(path, typed.panic), false)
  const terr = typed.failure ?? (typed.terrors.length > 0 ? unmarshalErrors(typed.terrors) : null)
  if (terr !== null) return fail(frontmatterError(path, terr, false))
  if (raw) {
    const m = decodeNode(doc, RAW_MAP_TYPE, parsed.at)
    if (m.panic !== null) return fail(panicText(path, m.panic), false)
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

/** ParseAgentMd(path) of this release (default: the newest). */
export function parseAgentMd(path: GoString, release: Release = managerRelease()): AgentParse {
  const p = parseFrontmatterFile(path, agentType(release), true)
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
