/**
 * The chat-completions request the manager's legacy agent kernel sends (v0.13.4), byte for byte:
 *
 * - internal/manager/biz/aiops/agent/agent.go runInternal: the tools are the registry's
 *   `Schemas()` less `web_search` (unless the turn enables it) and `execute_k8s_action` (unless
 *   an admin with write actions on); no system prompt (cmd/ongrid/main.go sets none); the
 *   config's temperature 0.1 and 30 iterations.
 * - internal/pkg/llm/client.go toOpenAIReq: a reasoning model (`isReasoningModel`) gets no
 *   temperature, any other 0.1; each tool `{"type":"function","function":{name, description,
 *   parameters}}` with the parameters passed through as json.RawMessage (compacted, key order
 *   kept); a base URL without a path gets `/v1` (`normalizeOpenAIBaseURL`).
 * - go-openai v1.41.2 ChatCompletionRequest / ChatCompletionMessage: field order and `omitempty`
 *   (an empty content, name or tool_call_id is left out; temperature 0 is left out), marshalled by
 *   encoding/json (HTML escaping on).
 * - tools/registry.go Register: a silent overwrite by name, so a pack registered by
 *   `RegisterSafeSkills` (the last registration at boot) replaces a builtin of the same name.
 */

import { fromText, type GoString } from '../go/gostring.js'
import { marshalString } from '../schema/go-any.js'
import { BUILTIN_SAFE_SKILLS, type BuiltinSkill, REGISTRY_TOOLS, type SkillParam } from './builtins.js'

/** cmd/ongrid/main.go's agent config: cfg.OpenAI.Model (ONGRID_OPENAI_MODEL, default below). */
export const DEFAULT_MODEL = 'gpt-5.4'
/** agent.Config.Temperature as main.go sets it. */
export const TEMPERATURE = 0.1
/** agent.Config.MaxIterations as main.go sets it. */
export const MAX_ITERATIONS = 30
/** agent.Config.ToolTimeout's default (main.go sets none): each tool call's deadline. */
export const TOOL_TIMEOUT_MS = 15_000

export const TOOL_WEB_SEARCH = 'web_search'
export const TOOL_EXECUTE_K8S_ACTION = 'execute_k8s_action'

/** The named configurations of the manager whose builtin tools are offered. */
export const PROFILES = ['install', 'code-defaults'] as const
export type Profile = (typeof PROFILES)[number]

/** client.go isReasoningModel: the families that fix their sampling params. */
export function isReasoningModel(model: string): boolean {
  const m = model.trim().toLowerCase()
  if (m === '') return false
  if (m === 'o1' || m === 'o3' || m === 'o4') return true
  if (m.startsWith('o1-') || m.startsWith('o3-') || m.startsWith('o4-')) return true
  if (m.startsWith('gpt-5')) return true
  if (m.startsWith('kimi-k2') || m.startsWith('kimi-k3')) return true
  return m.includes('reasoner') || m.includes('reasoning')
}

/**
 * client.go normalizeOpenAIBaseURL: a URL with a host and no path (or only slashes) gets `/v1`;
 * anything else, a scheme-less address included, is used as given (trimmed).
 */
export function normalizeBaseURL(raw: string): string {
  const s = raw.trim()
  const m = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]+)\/*([?#].*)?$/.exec(s)
  if (m === null) return s
  return `${m[1]}/v1${m[2] ?? ''}`
}

/**
 * encoding/json's Compact with HTML escaping (how json.Marshal writes a json.RawMessage), for
 * text Go's scanner accepts: white space between tokens dropped, `<` `>` `&` U+2028 U+2029 in
 * strings escaped, everything else byte for byte.
 */
export function compactJSON(src: GoString): GoString {
  let out = ''
  let inString = false
  for (let i = 0; i < src.length; i++) {
    const c = src[i]
    if (inString) {
      if (c === '\\') {
        out += c + src[i + 1]
        i++
      } else if (c === '"') {
        inString = false
        out += c
      } else if (c === '<' || c === '>' || c === '&') out += `\\u00${c.charCodeAt(0).toString(16)}`
      else if (c === '\xe2' && src[i + 1] === '\x80' && (src[i + 2] === '\xa8' || src[i + 2] === '\xa9')) {
        out += src[i + 2] === '\xa8' ? '\\u2028' : '\\u2029'
        i += 2
      } else out += c
    } else if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      // insignificant white space
    } else {
      if (c === '"') inString = true
      out += c
    }
  }
  return out
}

/** One tool of the registry: what the LLM is offered, and what answers a call of it. */
export interface RegistryEntry {
  name: GoString
  description: GoString
  /** The parameters as the request carries them (compact). */
  parameters: GoString
  /** The `{"type":"function",...}` object, compact, as json.Marshal writes it. */
  json: GoString
  kind: 'builtin' | 'pack'
  /** For a builtin: the manager file it was read from; for a pack: its manifest. */
  source: string
}

/** The OpenAI tool object as go-openai marshals it (description omitted when empty). */
export function toolJSON(name: GoString, description: GoString, parameters: GoString): GoString {
  return (
    `{"type":"function","function":{"name":${marshalString(name)}` +
    (description !== '' ? `,"description":${marshalString(description)}` : '') +
    `,"parameters":${parameters === '' ? 'null' : parameters}}}`
  )
}

/** json.Marshal of a Go `any` built from the ParamSchema (maps sorted by key). */
type GoValue = string | number | boolean | GoValue[] | { [k: string]: GoValue }

function marshalValue(v: GoValue): GoString {
  if (typeof v === 'string') return marshalString(fromText(v))
  if (typeof v === 'number') return String(v)
  if (typeof v === 'boolean') return v ? 'true' : 'false'
  if (Array.isArray(v)) return `[${v.map(marshalValue).join(',')}]`
  const keys = Object.keys(v)
    .map((k) => [fromText(k), k] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  return `{${keys.map(([gk, k]) => `${marshalString(gk)}:${marshalValue(v[k])}`).join(',')}}`
}

const JSON_TYPE: Record<SkillParam['type'], string> = {
  string: 'string',
  duration: 'string',
  int: 'integer',
  float: 'number',
  bool: 'boolean',
  enum: 'string',
  array: 'array',
}

/**
 * The parameters the bridge builds for a builtin skill: schema.go ToJSONSchema, decoded into
 * map[string]any and, for a host-scoped skill, `device_id` added. The bridge reads the
 * existing `required` as []string, which a decoded []any never is: `required` becomes
 * `["device_id"]` alone (skill_bridge.go buildSkillToolSchema), the other names dropped.
 */
export function builtinSkillParameters(s: BuiltinSkill): GoString {
  const props: Record<string, GoValue> = {}
  const required: string[] = []
  for (const p of s.params) {
    const entry: Record<string, GoValue> = { description: p.desc, type: JSON_TYPE[p.type] }
    if (p.type === 'enum' && p.enum !== undefined && p.enum.length > 0) entry.enum = p.enum
    if (p.default !== undefined) entry.default = p.default
    props[p.name] = entry
    if (p.required === true) required.push(p.name)
  }
  const base: Record<string, GoValue> = { type: 'object', properties: props }
  if (required.length > 0) base.required = required
  if (s.scope === 'host') {
    props.device_id = {
      type: 'integer',
      description:
        'Device id to run this skill on (required). Same id as the @-mention chip and the Prom device_id label.',
    }
    base.required = ['device_id']
  }
  return marshalValue(base)
}

export interface BuiltinOptions {
  /**
   * When given, only the builtins named here (the tools a given manager release has); the
   * profile still decides which of those its configuration registers.
   */
  present?: readonly string[]
}

/** The builtin tools a profile's registry holds, by name (web_search and execute_k8s_action included). */
export function builtinTools(profile: Profile, opts: BuiltinOptions = {}): Map<GoString, RegistryEntry> {
  const keep = opts.present === undefined ? null : new Set(opts.present)
  const out = new Map<GoString, RegistryEntry>()
  const add = (name: GoString, description: GoString, parameters: GoString, source: string) =>
    out.set(name, {
      name,
      description,
      parameters,
      json: toolJSON(name, description, parameters),
      kind: 'builtin',
      source,
    })
  for (const t of REGISTRY_TOOLS) {
    if (t.needs === 'prom' && profile !== 'install') continue
    if (keep !== null && !keep.has(t.name)) continue
    add(fromText(t.name), fromText(t.description), compactJSON(fromText(t.schema)), t.source)
  }
  for (const s of BUILTIN_SAFE_SKILLS) {
    if (keep !== null && !keep.has(s.key)) continue
    const description =
      s.resultPreview !== '' ? `${s.description}\n\nReturns: ${s.resultPreview}` : s.description
    add(fromText(s.key), fromText(description), builtinSkillParameters(s), s.source)
  }
  return out
}

/** A pack's tool as `lint --show-tool` defines it (core/tool-def.ts). */
export interface PackTool {
  name: GoString
  description: GoString
  parameters: GoString
  json: GoString
  source: string
}

export interface ExposeOptions extends BuiltinOptions {
  /** The turn's web search toggle (RunOptions.WebSearchEnabled). */
  webSearch?: boolean
  /** An admin with the agent's write actions on (canExecuteK8sAction). */
  k8sWrite?: boolean
}

export interface Assembled {
  /** Every tool the registry holds: what answers a call. */
  registry: Map<GoString, RegistryEntry>
  /** What the request offers, sorted by name (the manager's order is a map's: random). */
  offered: RegistryEntry[]
  /** Builtins a pack replaced (registry.go Register overwrites by name). */
  shadowed: GoString[]
}

/** The registry at the end of boot and the tools the agent exposes from it. */
export function assembleTools(
  profile: Profile,
  packs: readonly PackTool[],
  opts: ExposeOptions = {},
): Assembled {
  const registry = builtinTools(profile, opts)
  const shadowed: GoString[] = []
  for (const p of packs) {
    if (registry.get(p.name)?.kind === 'builtin') shadowed.push(p.name)
    registry.set(p.name, { ...p, kind: 'pack' })
  }
  const offered = [...registry.values()]
    .filter((t) => {
      if (t.name === TOOL_WEB_SEARCH && opts.webSearch !== true) return false
      if (t.name === TOOL_EXECUTE_K8S_ACTION && opts.k8sWrite !== true) return false
      return true
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  return { registry, offered, shadowed: shadowed.sort() }
}

/** llm.ToolCall: the id the provider gave, the name, the arguments as sent (never empty: `{}`). */
export interface ToolCall {
  id: GoString
  name: GoString
  args: GoString
}

/** llm.Message as the agent builds it. */
export interface Message {
  role: GoString
  content: GoString
  toolCalls?: ToolCall[]
  toolCallId?: GoString
  /** The tool's name on a tool message (go-openai's `name`). */
  name?: GoString
}

/** go-openai ChatCompletionMessage.MarshalJSON (string content): its fields in order, empty ones left out. */
export function marshalMessage(m: Message): GoString {
  let s = `{"role":${marshalString(m.role)}`
  if (m.content !== '') s += `,"content":${marshalString(m.content)}`
  if (m.name !== undefined && m.name !== '') s += `,"name":${marshalString(m.name)}`
  if (m.toolCalls !== undefined && m.toolCalls.length > 0) {
    s += `,"tool_calls":[${m.toolCalls
      .map(
        (tc) =>
          '{' +
          (tc.id !== '' ? `"id":${marshalString(tc.id)},` : '') +
          '"type":"function","function":{' +
          [
            tc.name !== '' ? `"name":${marshalString(tc.name)}` : '',
            tc.args !== '' ? `"arguments":${marshalString(tc.args)}` : '',
          ]
            .filter((x) => x !== '')
            .join(',') +
          '}}',
      )
      .join(',')}]`
  }
  if (m.toolCallId !== undefined && m.toolCallId !== '') s += `,"tool_call_id":${marshalString(m.toolCallId)}`
  return `${s}}`
}

/** The temperature toOpenAIReq sends: none (0, left out) for a reasoning model or one that refused it. */
export function temperatureFor(model: string, refusesSampling = false): number {
  return isReasoningModel(model) || refusesSampling ? 0 : TEMPERATURE
}

/**
 * The body of one chat-completions request: go-openai's ChatCompletionRequest fields in order
 * (model, messages, temperature, tools), as json.Marshal writes it. `tools` in the order given.
 */
export function requestBody(
  model: string,
  messages: readonly Message[],
  tools: readonly RegistryEntry[],
  temperature: number,
): GoString {
  let s = `{"model":${marshalString(fromText(model))},"messages":[${messages.map(marshalMessage).join(',')}]`
  // float32 0.1, as encoding/json formats a float32.
  if (temperature !== 0) s += `,"temperature":${temperature}`
  if (tools.length > 0) s += `,"tools":[${tools.map((t) => t.json).join(',')}]`
  return `${s}}`
}

/** The first request of a turn: the user's prompt alone (a new session, no system prompt). */
export function firstRequest(model: string, prompt: string, tools: readonly RegistryEntry[]): GoString {
  return requestBody(model, [{ role: 'user', content: fromText(prompt) }], tools, temperatureFor(model))
}
