/**
 * Schemas nested as deep as the manager's decoder accepts (Go's 10000 levels): lint, validate and
 * `--show-tool` give findings and the bridge's definition, never an internal error. ajv recurses
 * on the stack (about 390 levels of `anyOf` on the main thread): it is not given such schemas.
 */
import assert from 'node:assert/strict'
import { after, describe, test } from 'node:test'
import { runCliSync } from '../helpers/cli.js'
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
      const r = runCliSync([...cmd, 'skills'], { cwd: root, timeoutMs: 120_000 })
      assert.equal(r.stderr, '')
      assert.equal(r.code, 0, r.stdout)
      for (const { name } of packs) {
        const at = r.stdout.indexOf(`skills/${name}/skill.json`)
        assert.ok(at >= 0, `${name} in:\n${r.stdout}`)
      }
      // Each pack's schema is reported as not checked by ajv (500) or not analysed (past 1000).
      assert.equal(r.stdout.match(/ajv did not check the schema: it nests \d+ levels/g)?.length, 5)
      assert.equal(r.stdout.match(/the schema nests deeper than 1000 levels: not analysed/g)?.length, 5)
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
