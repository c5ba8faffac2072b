import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { fromText } from '../../../src/core/go/gostring.js'
import { check } from '../../../src/core/lint/engine.js'
import { RULES } from '../../../src/core/lint/registry.js'
import { ECHO, makeTree, manifest, tempRoot } from '../../helpers/tree.js'

let R = ''
let cleanup = () => {}

before(() => {
  ;({ root: R, cleanup } = tempRoot())
  makeTree(R, {
    'skills/a/skill.json': manifest({
      name: 'a',
      description: 'Reports the free space of a filesystem, in bytes.',
      entry: 'run.sh',
      class: 'safe',
      timeout_seconds: 10,
      schema: { type: 'object', properties: {}, additionalProperties: false },
    }),
    'skills/a/run.sh': ECHO,
    'skills/a/tests/t.json': JSON.stringify({ name: 't', args: {}, expect: { ok: true } }),
    'skills/n/SKILL.md': '---\nname: n\ndescription: Reports the free space of a filesystem.\n---\n',
    'skills/.ongrid-skill.yaml': 'rules: {}\n',
  })
})
after(() => cleanup())

const ruleIds = async (file: string, overlay?: ReadonlyMap<string, Buffer>) =>
  (await check({ paths: [fromText(file)], rules: RULES, set: 'all', useConfig: true, overlay })).files
    .flatMap((f) => f.findings.map((x) => x.ruleId))
    .filter((id, i, all) => all.indexOf(id) === i)

test('buffers are a parameter of one check: given, they are read instead of the disk; not given, the disk is', async () => {
  const manifestPath = `${R}/skills/a/skill.json`
  const onDisk = await ruleIds(manifestPath)
  assert.ok(!onDisk.includes('manager/parse'), onDisk.join(' '))
  // A skill.json being typed: not JSON yet.
  assert.ok(
    (await ruleIds(manifestPath, new Map([[manifestPath, Buffer.from('{"name": ')]]))).includes(
      'manager/parse',
    ),
  )
  // The same check again without it: nothing of the buffer is left behind.
  assert.deepEqual(await ruleIds(manifestPath), onDisk)
  // A case file, a SKILL.md and a config, each from its buffer.
  const cases = `${R}/skills/a/tests/t.json`
  assert.ok(
    (await ruleIds(manifestPath, new Map([[cases, Buffer.from('{"name": "t", "nope": 1}')]]))).includes(
      'tests/unknown-key',
    ),
  )
  const md = `${R}/skills/n/SKILL.md`
  assert.ok((await ruleIds(md, new Map([[md, Buffer.from('---\nname: [\n---\n')]]))).includes('native/yaml'))
  const config = `${R}/skills/.ongrid-skill.yaml`
  await assert.rejects(
    check({
      paths: [fromText(manifestPath)],
      rules: RULES,
      set: 'all',
      useConfig: true,
      overlay: new Map([[config, Buffer.from('rules: {nope/nothing: error}\n')]]),
    }),
    /nope\/nothing/,
  )
  // A file given as text need not exist on the disk.
  const unsaved = `${R}/skills/new/skill.json`
  assert.ok((await ruleIds(unsaved, new Map([[unsaved, Buffer.from('{')]]))).includes('manager/parse'))
})
