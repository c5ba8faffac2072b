import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { SkillClass, SubprocessSkill } from '../../../src/core/loader/build.js'
import { decodeManifest } from '../../../src/core/loader/manifest.js'
import {
  annotationsFor,
  bridgeParams,
  callOutcome,
  compactHTML,
  parseClasses,
  type Registered,
  selectTools,
  unknownToolError,
} from '../../../src/core/mcp/tools.js'
import { toolDefinition } from '../../../src/core/tool-def.js'

/** A registered skill built from manifest text, as the loader's `registered` event carries it. */
function reg(name: string, cls: SkillClass, schema?: string): Registered {
  const text = `{"name":"${name}","description":"Does ${name}.","entry":"run.sh"${schema === undefined ? '' : `,"schema":${schema}`},"class":"${cls}"}`
  const parsed = decodeManifest(text)
  const skill: SubprocessSkill = {
    key: name,
    description: `Does ${name}.`,
    class: cls,
    category: 'external',
    schema: parsed.manifest.schema,
    entry: `/p/${name}/run.sh`,
    envAllow: null,
    timeoutNs: 30_000_000_000n,
    manifestPath: `/p/${name}/skill.json`,
  }
  return { skill, parsed }
}

describe('selectTools: what the bridge offers', () => {
  test('safe skills only, sorted by key byte-wise, whatever the load order', () => {
    const { tools, skipped } = selectTools(
      [
        reg('zeta', 'safe'),
        reg('mid', 'mutating'),
        reg('alpha', 'safe'),
        reg('boom', 'dangerous'),
        reg('Z_', 'safe'),
      ],
      ['safe'],
    )
    assert.deepEqual(
      tools.map((t) => t.name),
      ['Z_', 'alpha', 'zeta'],
    )
    assert.deepEqual(
      skipped.map((s) => [s.key, s.reason]),
      [
        ['boom', 'class'],
        ['mid', 'class'],
      ],
    )
  })

  test('name, description and parameters are the bridge’s function definition', () => {
    const r = reg('alpha', 'safe', '{"properties":{"b":{"type":"integer"},"a":{"type":"string"}}}')
    const [tool] = selectTools([r], ['safe']).tools
    const def = toolDefinition(
      r.skill,
      r.parsed!.raw!,
      r.parsed!.keys.find((k) => k.field === 'schema')!.valueOffset,
    )
    assert.ok(def.offered)
    assert.equal(tool.description, 'Does alpha.\n\nReturns: {...} (subprocess skill output)')
    assert.deepEqual(tool.inputSchema, JSON.parse(def.parameters))
    assert.equal(
      JSON.stringify(tool.inputSchema),
      '{"properties":{"a":{"type":"string"},"b":{"type":"integer"}},"type":"object"}',
    )
    assert.equal(tool.definition, def.json)
  })

  test('no schema: the bridge’s empty object schema', () => {
    const [tool] = selectTools([reg('alpha', 'safe')], ['safe']).tools
    assert.deepEqual(tool.inputSchema, { properties: {}, type: 'object' })
  })

  test('a schema that is not an object: skipped with the bridge’s WARN', () => {
    const { tools, skipped } = selectTools([reg('bad', 'safe', '"x"')], ['safe'])
    assert.equal(tools.length, 0)
    assert.equal(
      skipped[0].line,
      'WARN aiops/tools: skill schema build failed skill=bad err=subprocess skill "bad": invalid manifest schema: json: cannot unmarshal string into Go value of type map[string]interface {}',
    )
  })

  test('an object schema whose type is not "object": not served (MCP needs an object)', () => {
    const { tools, skipped } = selectTools([reg('s', 'safe', '{"type":"string"}')], ['safe'])
    assert.equal(tools.length, 0)
    assert.equal(skipped[0].reason, 'not-object')
    assert.match(skipped[0].line, /"s" not served: its schema's "type" is "string"/)
  })

  test('--class widens; annotations carry the class', () => {
    const { tools } = selectTools(
      [reg('m', 'mutating', '{"properties":{}}'), reg('d', 'dangerous'), reg('s', 'safe')],
      ['safe', 'mutating', 'dangerous'],
    )
    assert.deepEqual(
      tools.map((t) => [t.name, t.annotations]),
      [
        ['d', { readOnlyHint: false, destructiveHint: true }],
        ['m', { readOnlyHint: false, destructiveHint: false }],
        ['s', { readOnlyHint: true, destructiveHint: false }],
      ],
    )
    assert.deepEqual(tools[1].inputSchema, { properties: {}, type: 'object' })
    assert.deepEqual(annotationsFor('safe'), { readOnlyHint: true, destructiveHint: false })
  })

  test('parseClasses', () => {
    assert.deepEqual(parseClasses('safe'), ['safe'])
    assert.deepEqual(parseClasses(' mutating, safe ,mutating'), ['mutating', 'safe'])
    assert.equal(
      parseClasses('safe,risky'),
      '--class: unknown class "risky" (expected safe, mutating, dangerous)',
    )
    assert.equal(parseClasses(','), '--class: no class given')
  })
})

describe('bridgeParams: what the bridge sends on stdin', () => {
  test('keys sorted, edge_id and device_id dropped, compact', () => {
    assert.equal(
      bridgeParams({ b: 1, a: [1, { y: 2, x: null }], edge_id: 7, device_id: 3 }),
      '{"a":[1,{"y":2,"x":null}],"b":1}',
    )
  })
  test('no arguments: {}', () => {
    assert.equal(bridgeParams(undefined), '{}')
    assert.equal(bridgeParams({}), '{}')
  })
  test('HTML characters and U+2028/2029 escaped as json.Marshal does, in keys and values', () => {
    assert.equal(
      bridgeParams({ '<k>': 'a&b', s: 'x\u2028y\u2029' }),
      '{"\\u003ck\\u003e":"a\\u0026b","s":"x\\u2028y\\u2029"}',
    )
  })
  test('non-ASCII keys sort by UTF-8 bytes, not UTF-16 units', () => {
    // U+FF01 (EF BC 81) sorts before U+1F600 (F0 9F 98 80) in bytes, after it in UTF-16.
    const out = bridgeParams({ '\u{1F600}': 1, '\uFF01': 2 })
    assert.equal(Buffer.from(out, 'latin1').toString('utf8'), '{"！":2,"😀":1}')
  })
  test('compactHTML leaves other bytes alone', () => {
    assert.equal(compactHTML('{"a":"é<"}'), '{"a":"é\\u003c"}')
  })
})

describe('callOutcome', () => {
  const ok = (s: string) => ({ ok: true, stdout: Buffer.from(s), error: null })
  test('an object: text verbatim and structured content', () => {
    assert.deepEqual(callOutcome(ok(' {"a":1}\n')), {
      isError: false,
      text: ' {"a":1}\n',
      structured: { a: 1 },
    })
  })
  test('an object with a __proto__ key: text only (the SDK’s copy of structured content would lose the key)', () => {
    const text = '{"__proto__":{"a":1},"b":2}'
    assert.deepEqual(callOutcome(ok(text)), { isError: false, text })
    assert.deepEqual(Object.keys(callOutcome(ok('{"c":{"__proto__":1}}')).structured ?? {}), ['c'])
  })
  test('any other JSON: text only', () => {
    assert.deepEqual(callOutcome(ok('[1]\n')), { isError: false, text: '[1]\n' })
    assert.deepEqual(callOutcome(ok('"s"')), { isError: false, text: '"s"' })
  })
  test('a failure: the manager’s error text', () => {
    assert.deepEqual(
      callOutcome({ ok: false, stdout: Buffer.alloc(0), error: 'subprocess skill k: exit 1 (stderr: )' }),
      {
        isError: true,
        text: 'subprocess skill k: exit 1 (stderr: )',
      },
    )
  })
  test('unknown tool: the aiops registry’s text', () => {
    assert.equal(unknownToolError('nope'), 'not found: tool "nope"')
  })
})

test('bridgeParams: keys Go decodes alike (lone surrogates, U+FFFD) are one key, the last wins', () => {
  const out = bridgeParams({ '\uD800': 1, a: 2, '\uFFFD': 3 })
  assert.equal(Buffer.from(out, 'latin1').toString('utf8'), '{"a":2,"\uFFFD":3}')
})
