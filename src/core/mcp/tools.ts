/**
 * The manager's LLM bridge (internal/manager/biz/aiops/tools/skill_bridge.go, v0.13.4) seen from
 * an MCP server: which registered skills become tools and how, what a call sends to the entry,
 * and what comes back. No MCP SDK here: `src/mcp/` puts these on the wire.
 *
 * - Tools: `RegisterSafeSkills` walks `AllByClass(safe)`, sorted by key (byte order), and skips a
 *   skill whose schema does not decode (a WARN record); name, description and parameters are
 *   `toolDefinition` (core/tool-def.ts, what `lint --show-tool` prints). Wider classes are served
 *   only when asked for, built by the same transformation.
 * - Calls: the bridge's executor decodes the arguments into map[string]json.RawMessage, drops
 *   `edge_id` and `device_id` (subprocess skills are manager-scoped), and json.Marshals the map
 *   again: keys sorted, HTML-escaped strings. That is what the entry gets on stdin.
 */

import { fromText, type GoString, toText } from '../go/gostring.js'
import { quote } from '../go/strconv/quote.js'
import { stringify } from '../json-text.js'
import type { SkillClass, SubprocessSkill } from '../loader/build.js'
import type { ParsedManifest } from '../loader/manifest.js'
import { marshalString } from '../schema/go-any.js'
import { SCHEMA_WARN_MSG, toolDefinition } from '../tool-def.js'

export const SKILL_CLASSES: readonly SkillClass[] = ['safe', 'mutating', 'dangerous']

/** MCP tool annotations (hints for the client), from the skill's class. */
export interface ToolAnnotations {
  readOnlyHint: boolean
  destructiveHint: boolean
}

/** One tool, ready for `tools/list`, with the skill that runs it. */
export interface McpTool {
  skill: SubprocessSkill
  name: string
  description: string
  /** The bridge's parameters as a JS value (JSON.parse of the bytes json.Marshal gives). */
  inputSchema: Record<string, unknown>
  annotations: ToolAnnotations
  /** The OpenAI function definition, byte for byte as the manager marshals it (`lint --show-tool --json`). */
  definition: GoString
}

/** A registered skill and the manifest it was built from (the loader's `registered` event). */
export interface Registered {
  skill: SubprocessSkill
  parsed: ParsedManifest | undefined
}

/** Why a registered skill is not served; `line` is for stderr. */
export interface NotServed {
  key: GoString
  reason: 'class' | 'schema' | 'not-object' | 'too-deep'
  line: GoString
}

export function annotationsFor(cls: SkillClass): ToolAnnotations {
  return { readOnlyHint: cls === 'safe', destructiveHint: cls === 'dangerous' }
}

/** `--class safe,mutating`: the classes to serve (safe is what the manager offers). */
export function parseClasses(spec: string): SkillClass[] | string {
  const out: SkillClass[] = []
  for (const part of spec.split(',')) {
    const c = part.trim()
    if (c === '') continue
    if (!(SKILL_CLASSES as readonly string[]).includes(c)) {
      return `--class: unknown class ${JSON.stringify(c)} (expected ${SKILL_CLASSES.join(', ')})`
    }
    if (!out.includes(c as SkillClass)) out.push(c as SkillClass)
  }
  if (out.length === 0) return '--class: no class given'
  return out
}

/**
 * The tools the bridge would register from these skills, in its order (by key, byte-wise), for
 * the classes asked for. Skills left out come back in `skipped`, each with a line saying why.
 */
export function selectTools(
  registered: readonly Registered[],
  classes: readonly SkillClass[],
): { tools: McpTool[]; skipped: NotServed[] } {
  const sorted = [...registered].sort((a, b) =>
    a.skill.key < b.skill.key ? -1 : a.skill.key > b.skill.key ? 1 : 0,
  )
  const tools: McpTool[] = []
  const skipped: NotServed[] = []
  for (const { skill, parsed } of sorted) {
    const key = skill.key
    if (!classes.includes(skill.class)) {
      skipped.push({
        key,
        reason: 'class',
        line: `mcp: ${quote(key)} not served: class ${skill.class} (the manager offers safe skills only; --class widens)`,
      })
      continue
    }
    const raw = parsed?.raw ?? ''
    const schemaKey = lastKey(parsed, 'schema')
    // A wider class is served as the bridge would serve it if it were safe.
    const def = toolDefinition(
      skill.class === 'safe' ? skill : { ...skill, class: 'safe' },
      raw,
      schemaKey?.valueOffset ?? null,
    )
    if (!def.offered) {
      skipped.push({
        key,
        reason: 'schema',
        line: `WARN ${SCHEMA_WARN_MSG} skill=${key} err=${def.err?.error() ?? ''}`,
      })
      continue
    }
    const inputSchema = JSON.parse(toText(def.parameters)) as Record<string, unknown>
    if (inputSchema.type !== 'object') {
      // The bridge would send it as it is; MCP requires an object schema, and clients refuse the list.
      skipped.push({
        key,
        reason: 'not-object',
        line: `mcp: ${quote(key)} not served: its schema's "type" is ${fromText(JSON.stringify(inputSchema.type))}, and MCP tools take an object`,
      })
      continue
    }
    try {
      // The SDK writes each message with JSON.stringify, which recurses: a schema nested a few
      // thousand levels deep (Go allows 10000) would take the whole tools/list down with it.
      JSON.stringify(inputSchema)
    } catch (e) {
      if (!(e instanceof RangeError)) throw e
      skipped.push({
        key,
        reason: 'too-deep',
        line: `mcp: ${quote(key)} not served: its schema nests too deep for the MCP transport to write (the manager's bridge would offer it)`,
      })
      continue
    }
    tools.push({
      skill,
      name: toText(key),
      description: toText(def.description),
      inputSchema,
      annotations: annotationsFor(skill.class),
      definition: def.json,
    })
  }
  return { tools, skipped }
}

function lastKey(parsed: ParsedManifest | undefined, field: string) {
  const keys = parsed?.keys ?? []
  for (let i = keys.length - 1; i >= 0; i--) if (keys[i].field === field) return keys[i]
  return undefined
}

/**
 * The params the bridge sends for a tool call's arguments: json.Marshal of
 * map[string]json.RawMessage without `edge_id` and `device_id` — keys sorted byte-wise, each
 * RawMessage compacted with HTML escaping. The MCP transport has parsed the arguments already,
 * so each value's source is taken to be its JSON.stringify text, which is what an SDK client
 * sends (a number written as `1.0` or `1e3` in the request arrives as `1` or `1000`).
 */
export function bridgeParams(args: Record<string, unknown> | undefined): GoString {
  // Keys as Go decodes them: a lone surrogate becomes U+FFFD, so distinct JS keys can be one Go
  // key, and then the last one in the document wins.
  const byKey = new Map<GoString, unknown>()
  for (const [k, v] of Object.entries(args ?? {})) {
    if (v !== undefined) byKey.set(fromText(k), v)
  }
  byKey.delete('edge_id')
  byKey.delete('device_id')
  const keyed = [...byKey]
  keyed.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  return `{${keyed.map(([k, v]) => `${marshalString(k)}:${compactHTML(fromText(stringify(v)))}`).join(',')}}`
}

/** json.Compact with HTML escaping, of JSON that is compact already: `<` `>` `&` U+2028 U+2029 escaped. */
export function compactHTML(src: GoString): GoString {
  return src.replace(/[<>&]|\xe2\x80[\xa8\xa9]/g, (m) =>
    m.length === 1 ? `\\u00${m.charCodeAt(0).toString(16)}` : m === '\xe2\x80\xa8' ? '\\u2028' : '\\u2029',
  )
}

/** The manager's text for a call to a tool it does not have (aiops Registry.Invoke). */
export function unknownToolError(name: string): GoString {
  return `not found: tool ${quote(fromText(name))}`
}

/** What a tool call answers: the entry's stdout, or the manager's error text. */
export interface CallOutcome {
  isError: boolean
  /** stdout verbatim (as UTF-8 text), or the manager's error text. */
  text: string
  /** The stdout document when it is a JSON object (MCP's structured content). */
  structured?: Record<string, unknown>
}

export function callOutcome(r: { ok: boolean; stdout: Buffer; error: GoString | null }): CallOutcome {
  if (!r.ok) return { isError: true, text: toText(r.error ?? '') }
  const text = r.stdout.toString('utf8')
  const first = firstNonSpace(r.stdout)
  if (first !== 0x7b) return { isError: false, text }
  try {
    const value: unknown = JSON.parse(text)
    // A document nested too deep for the transport to write again is left as text only.
    JSON.stringify(value)
    // So is one with a `__proto__` key: the SDK copies structured content key by key, and the
    // copy would lose it (the text keeps it, as the entry wrote it).
    if (Object.hasOwn(value as object, '__proto__')) return { isError: false, text }
    return { isError: false, text, structured: value as Record<string, unknown> }
  } catch {
    return { isError: false, text }
  }
}

function firstNonSpace(b: Buffer): number {
  for (const c of b) if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return c
  return -1
}
