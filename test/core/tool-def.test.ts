import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { fromText } from '../../src/core/go/gostring.js'
import type { SubprocessSkill } from '../../src/core/loader/build.js'
import { type ToolDefinition, toolDefinition } from '../../src/core/tool-def.js'

function skill(over: Partial<SubprocessSkill> = {}): SubprocessSkill {
  return {
    key: 'k',
    description: 'Does k.',
    class: 'safe',
    category: 'external',
    schema: null,
    entry: '/x/run.sh',
    envAllow: null,
    timeoutNs: 30_000_000_000n,
    manifestPath: '/x/skill.json',
    ...over,
  }
}

/** A manifest whose schema value starts right after `{"schema":`. */
function withSchema(schema: string): [SubprocessSkill, string, number] {
  const raw = fromText(`{"schema":${schema}}`)
  return [skill({ schema: fromText(schema) }), raw, 10]
}

function params(d: ToolDefinition): string {
  assert.ok(d.offered)
  return d.offered ? d.parameters : ''
}

describe('the LLM bridge’s function definition (research note §2.3)', () => {
  test('no schema: {"properties":{},"type":"object"}', () => {
    assert.equal(params(toolDefinition(skill(), '{}', null)), '{"properties":{},"type":"object"}')
  })
  test('null and {} give {"type":"object"} (no properties)', () => {
    assert.equal(params(toolDefinition(...withSchema('null'))), '{"type":"object"}')
    assert.equal(params(toolDefinition(...withSchema(' {} '))), '{"type":"object"}')
  })
  test('type is added only when the key is missing', () => {
    assert.equal(params(toolDefinition(...withSchema('{"type":null}'))), '{"type":null}')
    assert.equal(params(toolDefinition(...withSchema('{"type":"string"}'))), '{"type":"string"}')
    assert.equal(
      params(
        toolDefinition(
          ...withSchema('{ "properties": {"b":{"type":"integer","maximum":1.0}}, "required":["b"] }'),
        ),
      ),
      '{"properties":{"b":{"maximum":1,"type":"integer"}},"required":["b"],"type":"object"}',
    )
  })
  test('name, description with the Returns suffix, and the OpenAI tool object', () => {
    const d = toolDefinition(skill({ key: 'disk', description: 'Say <hi> & bye.' }), '{}', null)
    assert.ok(d.offered)
    if (!d.offered) return
    assert.equal(d.description, 'Say <hi> & bye.\n\nReturns: {...} (subprocess skill output)')
    assert.equal(
      d.json,
      '{"type":"function","function":{"name":"disk","description":"Say \\u003chi\\u003e \\u0026 bye.\\n\\nReturns: {...} (subprocess skill output)","parameters":{"properties":{},"type":"object"}}}',
    )
  })
  test('only safe skills are offered', () => {
    for (const c of ['mutating', 'dangerous'] as const) {
      const d = toolDefinition(skill({ class: c }), '{}', null)
      assert.deepEqual(d, { offered: false, reason: 'class', err: null, at: null })
    }
  })
  test('a schema that is not an object: skipped, with the bridge’s error', () => {
    const d = toolDefinition(...withSchema('"x"'))
    assert.ok(!d.offered && d.reason === 'schema')
    if (d.offered) return
    assert.equal(
      d.err?.error(),
      'subprocess skill "k": invalid manifest schema: json: cannot unmarshal string into Go value of type map[string]interface {}',
    )
    assert.equal(d.at, 10)
  })
})
