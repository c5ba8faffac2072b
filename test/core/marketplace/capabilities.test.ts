import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { fromText, toText } from '../../../src/core/go/gostring.js'
import { capabilityDeclarationJSON } from '../../../src/core/marketplace/capabilities.js'
import { loadPluginContainer } from '../../../src/core/marketplace/container.js'
import { makeTree, tempRoot } from '../../helpers/tree.js'

const { root, cleanup } = tempRoot('ongrid-mp-caps-')
after(cleanup)
let n = 0
async function caps(nodes: Parameters<typeof makeTree>[1]) {
  const dir = join(root, `p${n++}`)
  mkdirSync(dir)
  makeTree(dir, nodes)
  const r = await loadPluginContainer(dir)
  assert.ok(r.ok)
  const res = r.result
  return capabilityDeclarationJSON(res.pack.id, res.pack.version, res.skills, res.agents.length)
}
const MANIFEST = { '.claude-plugin/plugin.json': '{"id":"etcd-tools","version":"0.4.2"}' }

test('the declaration: keys in struct order, omitempty, nil slices as null, sorted classes and unions', async () => {
  const c = await caps({
    ...MANIFEST,
    'skills/a/SKILL.md': [
      '---',
      'name: etcd_health',
      'description: d',
      'tools:',
      '  - {name: t1, class: write}',
      '  - {name: t2}',
      '  - {name: t3, class: destructive}',
      '  - {name: t4, class: write}',
      'metadata:',
      '  requires:',
      '    bins: [etcdctl, kubectl, etcdctl]',
      '    config: [etcd_endpoint]',
      '    credentials:',
      '      - {slot: etcd, label: Etcd TLS, fields: [cert, key]}',
      '      - {label: no slot}',
      '      - {slot: cloud, label: Cloud}',
      '---',
      'Body',
      '',
    ].join('\n'),
    'skills/b/SKILL.md': [
      '---',
      'name: Edge Probe',
      'description: d',
      'metadata:',
      '  ongrid: {scope: edge}',
      '  requires:',
      '    bins: [awk]',
      '    credentials: [{slot: etcd, label: Other label}]',
      '---',
      '',
    ].join('\n'),
    'commands/do-it.md': '---\ndescription: runs\n---\nDo it.\n',
    'agents/helper.md': '---\nname: helper\ndescription: d\nwhen_to_use: w\n---\nYou help.\n',
  })
  assert.ok(c.ok)
  assert.equal(
    c.json,
    '{"pack_id":"etcd-tools","version":"0.4.2","skills":[' +
      '{"name":"etcd_health","scope":"manager","requires":{"bins":["etcdctl","kubectl","etcdctl"],"config":["etcd_endpoint"],' +
      '"credentials":[{"slot":"etcd","label":"Etcd TLS","fields":["cert","key"]},{"slot":"cloud","label":"Cloud"}]},' +
      '"tool_classes":["destructive","read","write"]},' +
      '{"name":"edge_probe","scope":"edge","requires":{"bins":["awk"],"credentials":[{"slot":"etcd","label":"Other label"}]},"tool_classes":null},' +
      '{"name":"cmd_do_it","scope":"manager","requires":{},"tool_classes":null}],' +
      '"agent_count":1,"summary":{"tool_classes":["destructive","read","write"],"bins":["awk","etcdctl","kubectl"],' +
      '"config_keys":["etcd_endpoint"],"credential_slots":[{"slot":"etcd","label":"Etcd TLS","fields":["cert","key"]},' +
      '{"slot":"cloud","label":"Cloud"}]}}',
  )
})

test('no skills: skills null, summary empty; HTML and control bytes escaped as json.Marshal', async () => {
  const empty = capabilityDeclarationJSON('p', '', [], 0)
  assert.deepEqual(empty, {
    ok: true,
    json: '{"pack_id":"p","version":"","skills":null,"agent_count":0,"summary":{}}',
  })
  const c = await caps({
    ...MANIFEST,
    'skills/a/SKILL.md':
      '---\nname: a\ndescription: d\nmetadata:\n  ongrid: {scope: "<x>&\\b\\u2028é"}\n  requires: {bins: [], config: ["\\xff"]}\n---\n',
  })
  assert.ok(c.ok)
  assert.equal(
    toText(c.json),
    '{"pack_id":"etcd-tools","version":"0.4.2","skills":[{"name":"a","scope":"\\u003cx\\u003e\\u0026\\b\\u2028é",' +
      '"requires":{"config":["ÿ"]},"tool_classes":null}],"agent_count":0,"summary":{"config_keys":["ÿ"]}}',
  )
  // Invalid UTF-8 in a byte string becomes \ufffd.
  const bad = capabilityDeclarationJSON(`${fromText('x')}\xff`, '1', [], 0)
  assert.ok(bad.ok)
  assert.equal(bad.json, '{"pack_id":"x\\ufffd","version":"1","skills":null,"agent_count":0,"summary":{}}')
})

test('edge_capabilities (free-form values) are not reproduced: named instead', async () => {
  const c = await caps({
    ...MANIFEST,
    'skills/a/SKILL.md':
      '---\nname: a\ndescription: d\nmetadata:\n  ongrid:\n    edge_capabilities: [{net: true}]\n---\n',
  })
  assert.deepEqual(c, { ok: false, unsupported: 'metadata.ongrid.edge_capabilities' })
  const none = await caps({
    ...MANIFEST,
    'skills/a/SKILL.md':
      '---\nname: a\ndescription: d\nmetadata:\n  ongrid:\n    edge_capabilities: ~\n---\n',
  })
  assert.ok(none.ok, 'a null list is nil in Go: omitted')
})
