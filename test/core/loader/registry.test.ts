import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { Registry } from '../../../src/core/loader/registry.js'
import { managerRelease } from '../../../src/core/releases/release.js'

// The keys v0.13.4 registers before its loader runs (internal/skill/builtin): a pack that takes
// one of them is skipped as "already registered" (the other releases: test/core/releases/).
const BUILTINS = [
  'capture_pcap',
  'get_packet_capture',
  'host_netns_inspect',
  'host_probe_dns',
  'host_probe_http',
  'host_probe_ping',
  'host_probe_tcp',
  'host_read_journal',
  'host_restart_service',
  'host_tail_file',
  'web_search',
]

describe('Registry', () => {
  test("by default the newest release's 11 builtin keys, and no other", () => {
    assert.deepEqual([...managerRelease().builtinSkillKeys].sort(), BUILTINS)
    const r = new Registry()
    for (const k of BUILTINS) assert.equal(r.has(k), true, k)
    assert.deepEqual([...r.builtins].sort(), BUILTINS)
    assert.equal(r.has('web_searc'), false)
    assert.equal(r.has(''), false)
  })

  test('add takes a key; other builtins can be given, or none', () => {
    const r = new Registry(['a'])
    assert.equal(r.has('a'), true)
    assert.equal(r.has('web_search'), false)
    assert.equal(r.has('b'), false)
    r.add('b')
    assert.equal(r.has('b'), true)
    assert.deepEqual([...r.builtins], ['a'])
    const none = new Registry([])
    assert.equal(none.has('web_search'), false)
    assert.equal(none.builtins.size, 0)
  })
})
