/**
 * Schemas nested as deep as the manager's decoder accepts (Go's 10000 levels): lint, validate and
 * `--show-tool` give findings and the bridge's definition, never an internal error. ajv recurses
 * on the stack (about 390 levels of `anyOf` on the main thread): it is not given such schemas.
 */
import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import { runCliSync } from '../helpers/cli.js'
import { SCHEMA_LEVELS, type SchemaLevelKind } from '../helpers/deep-schema.js'
import { ECHO, makeTree, tempRoot } from '../helpers/tree.js'

/**
 * Opening and closing text of one level of each kind, the JSON levels it adds, and the same level
 * as json.Marshal writes it (keys sorted) in the bridge's definition.
 */
const KINDS: Record<string, { open: string; close: string; levels: number; sorted: [string, string] }> = {
  items: {
    open: '{"type":"array","items":',
    close: '}',
    levels: 1,
    sorted: ['{"items":', ',"type":"array"}'],
  },
  properties: {
    open: '{"type":"object","properties":{"a":',
    close: '}}',
    levels: 2,
    sorted: ['{"properties":{"a":', '},"type":"object"}'],
  },
  anyOf: { open: '{"anyOf":[', close: ']}', levels: 2, sorted: ['{"anyOf":[', ']}'] },
  not: { open: '{"not":', close: '}', levels: 1, sorted: ['{"not":', '}'] },
  additionalProperties: {
    open: '{"type":"object","additionalProperties":',
    close: '}',
    levels: 1,
    sorted: ['{"additionalProperties":', ',"type":"object"}'],
  },
}

/** How many levels of its kind deepManifest nests for a depth. */
const levelsFor = (kind: string, depth: number) => Math.floor((depth - 3) / KINDS[kind].levels)

/** skill.json whose schema nests `depth` JSON levels in all (the manifest's own object is one more). */
function deepManifest(name: string, kind: string, depth: number): string {
  const k = KINDS[kind]
  // The manifest object and the schema's own object around the property; the string leaf is one.
  const n = levelsFor(kind, depth)
  const inner = `${k.open.repeat(n)}{"type":"string"}${k.close.repeat(n)}`
  return `{"name":"${name}","description":"A deep schema.","entry":"run.sh","class":"safe","schema":{"type":"object","properties":{"a":${inner}}}}`
}

const { root, cleanup } = tempRoot('ongrid-deep-')
after(cleanup)
// 500: past where ajv overflowed (390–400); 9990: near Go's 10000 for the whole file.
const DEPTHS = [500, 9990]
const packs: { name: string; kind: string; depth: number }[] = []
for (const kind of Object.keys(KINDS)) {
  for (const depth of DEPTHS) {
    const name = `${kind}_${depth}`.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
    makeTree(root, {
      [`skills/${name}/skill.json`]: deepManifest(name, kind, depth),
      [`skills/${name}/run.sh`]: ECHO,
    })
    packs.push({ name, kind, depth })
  }
}

describe('schemas nested up to Go’s 10000 levels', () => {
  for (const cmd of [['lint'], ['validate']]) {
    test(`${cmd[0]}: every pack checked, no internal error`, () => {
      // These schemas leave every level undescribed and open: one finding a level, each with its
      // long pointer, is more text than this test needs (the deepest level is judged below).
      const quiet =
        cmd[0] === 'lint'
          ? ['--rule', 'schema/property-description=off', '--rule', 'schema/additional-properties=off']
          : []
      const r = runCliSync([...cmd, 'skills', ...quiet], { cwd: root, timeoutMs: 120_000 })
      assert.equal(r.stderr, '')
      assert.equal(r.code, 0, r.stdout)
      for (const { name } of packs) {
        const at = r.stdout.indexOf(`skills/${name}/skill.json`)
        assert.ok(at >= 0, `${name} in:\n${r.stdout}`)
      }
      // Each pack's schema is reported as not checked by ajv, at every depth; nothing is left unread.
      assert.equal(r.stdout.match(/ajv did not check the schema: it nests \d+ levels/g)?.length, 10)
      assert.doesNotMatch(r.stdout, /not analysed/)
    })
  }
  for (const { name, kind, depth } of packs) {
    test(`lint --show-tool --json ${name}: the bridge's definition, whole`, () => {
      const r = runCliSync(['lint', '--show-tool', '--json', `skills/${name}`], {
        cwd: root,
        timeoutMs: 60_000,
      })
      assert.equal(r.stderr, '')
      assert.equal(r.code, 0)
      const [open, close] = KINDS[kind].sorted
      const n = levelsFor(kind, depth)
      const params = `{"properties":{"a":${open.repeat(n)}{"type":"string"}${close.repeat(n)}},"type":"object"}`
      assert.equal(
        r.stdout,
        `{"type":"function","function":{"name":"${name}","description":"A deep schema.\\n\\nReturns: {...} (subprocess skill output)","parameters":${params}}}\n`,
      )
    })
  }
})

/** The deepest subschema: a property without a description, a required name not declared. */
const LEAF =
  '{"type":"object","description":"d","additionalProperties":false,"required":["ghost"],"properties":{"leaf":{"type":"string"}}}'

/** skill.json (one line) whose schema nests about `depth` levels of `kinds` in turn around LEAF; the leaf's pointer. */
function leafManifest(name: string, kinds: string[], depth: number): { text: string; pointer: string } {
  let budget = depth - 5
  let open = ''
  let close = ''
  let pointer = '/properties/a'
  for (let i = 0; ; i++) {
    const k = SCHEMA_LEVELS[kinds[i % kinds.length] as SchemaLevelKind]
    if (k.levels > budget) break
    budget -= k.levels
    open += k.open
    close = k.close + close
    pointer += k.step
  }
  const text = `{"name":"${name}","description":"A deep schema for the depth tests.","entry":"run.sh","class":"safe","timeout_seconds":5,"schema":{"type":"object","additionalProperties":false,"properties":{"a":${open}${LEAF}${close}}}}`
  return { text, pointer }
}

describe('every rule judges the deepest subschema, up to Go’s 10000 levels', () => {
  const { root: deepRoot, cleanup: deepCleanup } = tempRoot('ongrid-deep-leaf-')
  after(deepCleanup)
  const leaves: { name: string; text: string; pointer: string }[] = []
  for (const kinds of [['items'], ['properties'], ['anyOf'], ['items', 'properties', 'anyOf']]) {
    for (const depth of [1001, 5000, 9990]) {
      const name = `${kinds.map((k) => k.toLowerCase()).join('_')}_${depth}`
      const m = leafManifest(name, kinds, depth)
      makeTree(deepRoot, { [`skills/${name}/skill.json`]: m.text, [`skills/${name}/run.sh`]: ECHO })
      leaves.push({ name, ...m })
    }
  }
  // An enum, const and default of equal values 9980 levels deep: compared without recursion.
  const values = `${'['.repeat(9980)}${']'.repeat(9980)}`
  makeTree(deepRoot, {
    'skills/deep_enum/skill.json': `{"name":"deep_enum","description":"A deep schema for the depth tests.","entry":"run.sh","class":"safe","timeout_seconds":5,"schema":{"type":"object","additionalProperties":false,"properties":{"a":{"description":"x","enum":[${values},${values}],"const":${values},"default":${values}}}}}`,
    'skills/deep_enum/run.sh': ECHO,
  })
  test('lint --json: the leaf’s property and required name reported where they are, in under a second each', () => {
    const started = Date.now()
    // The packs share one description: practice/confusable-tool would report each pair; and their
    // tool definitions, 10000 levels deep, are over practice/tool-size's budget. Neither is the point.
    const r = runCliSync(
      [
        'lint',
        '--json',
        '--rule',
        'practice/confusable-tool=off',
        '--rule',
        'practice/tool-size=off',
        'skills',
      ],
      {
        cwd: deepRoot,
        timeoutMs: 120_000,
      },
    )
    const ms = Date.now() - started
    assert.equal(r.stderr, '')
    assert.equal(r.code, 0)
    const doc = JSON.parse(r.stdout) as {
      files: { path: string; findings: { rule_id: string; column: number; message: string }[] }[]
    }
    for (const { name, text, pointer } of leaves) {
      const file = doc.files.find((f) => f.path === `skills/${name}/skill.json`)
      assert.ok(file, name)
      const found = file.findings.map((f) => [f.rule_id, f.column, f.message])
      assert.deepEqual(found, [
        [
          'schema/too-deep',
          text.indexOf('"schema"') + 1,
          found[0][2], // its depth, said by the rule's own tests
        ],
        [
          'schema/required-unknown',
          text.indexOf('"ghost"') + 1,
          'required property "ghost" is not declared in properties',
        ],
        [
          'schema/property-description',
          text.indexOf('"leaf"') + 1,
          `property "leaf" (at ${pointer}) has no description: tell the LLM what to pass`,
        ],
      ])
    }
    const enumFile = doc.files.find((f) => f.path === 'skills/deep_enum/skill.json')
    assert.deepEqual(
      enumFile?.findings.map((f) => f.rule_id),
      ['schema/too-deep'],
    )
    // Twelve packs, up to 10000 levels each, one process: well under a second a pack.
    assert.ok(ms < leaves.length * 1000, `${ms} ms`)
  })
  test('validate: exit 0, no internal error', () => {
    const r = runCliSync(['validate', 'skills'], { cwd: deepRoot, timeoutMs: 120_000 })
    assert.equal(r.stderr, '')
    assert.equal(r.code, 0, r.stdout)
  })
  for (const { name, text } of leaves.filter((l) => l.name.endsWith('_9990'))) {
    test(`lint --show-tool --json ${name}: the leaf reaches the bridge’s definition`, () => {
      const r = runCliSync(['lint', '--show-tool', '--json', `skills/${name}`], {
        cwd: deepRoot,
        timeoutMs: 60_000,
      })
      assert.equal(r.stderr, '')
      assert.equal(r.code, 0)
      assert.ok(text.length > 0)
      assert.match(
        r.stdout,
        /\{"additionalProperties":false,"description":"d","properties":\{"leaf":\{"type":"string"\}\},"required":\["ghost"\],"type":"object"\}/,
      )
    })
  }
})
