/**
 * The function definition the manager's LLM bridge builds for a subprocess skill
 * (internal/manager/biz/aiops/tools/skill_bridge.go, v0.13.4; research note §2.2–2.3):
 * only `safe` skills, name = key, description + "\n\nReturns: {...} (subprocess skill output)",
 * parameters = the manifest schema decoded into map[string]any, `"type":"object"` added when
 * there is no `type` key, re-encoded by json.Marshal. The OpenAI-compatible client sends it as
 * `{"type":"function","function":{"name":…,"description":…,"parameters":…}}`.
 */

import type { GoError } from './go/errors.js'
import type { GoString } from './go/gostring.js'
import { quote } from './go/strconv/quote.js'
import type { SubprocessSkill } from './loader/build.js'
import { decodeBridgeSchema, type GoMap, marshal, marshalString } from './schema/go-any.js'

/** What the loader sets as every subprocess skill's ResultPreview (loader.go). */
export const RESULT_PREVIEW = '{...} (subprocess skill output)'

/** The WARN record the bridge logs when it skips a skill whose schema does not decode. */
export const SCHEMA_WARN_MSG = 'aiops/tools: skill schema build failed'

/** The bridge's error for a skill whose schema does not decode (the `err` of that WARN record). */
export function invalidSchemaMessage(key: GoString, err: GoError): GoString {
  return `subprocess skill ${quote(key)}: invalid manifest schema: ${err.error()}`
}

export type ToolDefinition =
  | {
      offered: true
      name: GoString
      description: GoString
      /** The exact bytes json.Marshal produces for the parameters. */
      parameters: GoString
      /** The OpenAI tool object, compact, as json.Marshal writes it. */
      json: GoString
    }
  | {
      offered: false
      reason: 'class' | 'schema'
      /** For `schema`: the bridge's error (`subprocess skill "k": invalid manifest schema: …`). */
      err: GoError | null
      /** Byte offset in the manifest of the value at fault (schema reasons), when known. */
      at: number | null
    }

/**
 * The bridge for one registered skill. `raw` is the manifest file and `schemaStart` the
 * offset of its `schema` value (the RawMessage), or null when the key is absent.
 */
export function toolDefinition(
  skill: SubprocessSkill,
  raw: GoString,
  schemaStart: number | null,
): ToolDefinition {
  if (skill.class !== 'safe') return { offered: false, reason: 'class', err: null, at: null }
  let parameters: GoString
  if (skill.schema === null || skill.schema.length === 0 || schemaStart === null) {
    // No schema: built from the empty ParamSchema, {"type":"object","properties":{}} round-tripped.
    parameters = '{"properties":{},"type":"object"}'
  } else {
    const d = decodeBridgeSchema(raw, schemaStart)
    if (!d.ok) {
      return {
        offered: false,
        reason: 'schema',
        err: {
          error: () => invalidSchemaMessage(skill.key, d.err),
        },
        at: d.at,
      }
    }
    const base: GoMap = d.value ?? new Map()
    if (!base.has('type')) base.set('type', 'object')
    parameters = marshal(base)
  }
  const description = skill.description + '\n\nReturns: ' + RESULT_PREVIEW
  const json =
    '{"type":"function","function":{"name":' +
    marshalString(skill.key) +
    ',"description":' +
    marshalString(description) +
    ',"parameters":' +
    parameters +
    '}}'
  return { offered: true, name: skill.key, description, parameters, json }
}
