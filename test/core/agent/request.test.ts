import assert from 'node:assert/strict'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import {
  apologyText,
  bridgeParams,
  type ChatOutcome,
  type LoopDeps,
  type Reply,
  runTurn,
} from '../../../src/core/agent/loop.js'
import {
  assembleTools,
  builtinTools,
  compactJSON,
  firstRequest,
  isReasoningModel,
  normalizeBaseURL,
  type RegistryEntry,
} from '../../../src/core/agent/request.js'
import { execute, MAX_STDOUT } from '../../../src/core/executor/executor.js'
import { fromBuffer, fromText, toText } from '../../../src/core/go/gostring.js'
import { MAX_TOOL_BYTES } from '../../../src/core/lint/rules/practice-tool-size.js'
import { expectGolden } from '../../helpers/golden.js'

/** Each offered tool's object, one a line, sorted by name: the golden of a profile. */
function toolLines(entries: readonly RegistryEntry[]): string {
  return `${entries.map((t) => toText(t.json)).join('\n')}\n`
}

describe('builtin tools (registry.go, skill_bridge.go, main.go boot order; v0.13.4)', () => {
  test('install: 30 registered, 28 offered; code-defaults: 24 and 22', () => {
    const install = assembleTools('install', [])
    const defaults = assembleTools('code-defaults', [])
    assert.equal(install.registry.size, 30)
    assert.equal(install.offered.length, 28)
    assert.equal(defaults.registry.size, 24)
    assert.equal(defaults.offered.length, 22)
    // Prometheus on adds exactly these (NewRegistry, SetPluginConfigLister).
    const extra = [...install.registry.keys()].filter((k) => !defaults.registry.has(k)).sort()
    assert.deepEqual(extra, [
      'analyze_database_status',
      'correlate_incident',
      'find_outlier_edges',
      'list_metric_catalog',
      'query_promql',
      'rank_edges',
    ])
    for (const a of [install, defaults]) {
      assert.ok(a.registry.has('web_search') && a.registry.has('execute_k8s_action'))
      assert.ok(!a.offered.some((t) => t.name === 'web_search' || t.name === 'execute_k8s_action'))
    }
  })

  test('every builtin of both profiles, as the request carries it (goldens)', () => {
    expectGolden('test/golden/eval/tools-install.golden', toolLines(assembleTools('install', []).offered))
    expectGolden(
      'test/golden/eval/tools-code-defaults.golden',
      toolLines(assembleTools('code-defaults', []).offered),
    )
  })

  test("practice/tool-size's budget is the largest builtin tool offered (install)", () => {
    const sizes = assembleTools('install', []).offered.map((t) => t.json.length)
    assert.equal(Math.max(...sizes), MAX_TOOL_BYTES)
  })

  test('a registry tool: the Go source schema compacted, its key order kept', () => {
    const t = builtinTools('install').get('get_host_load')
    assert.equal(
      t?.json,
      '{"type":"function","function":{"name":"get_host_load","description":"Return current CPU percent, memory percent, and 1/5/15-minute load averages of the named edge host.","parameters":{"type":"object","properties":{"edge_name":{"type":"string","description":"Name of the edge as set when the edge was created."}},"required":["edge_name"]}}}',
    )
  })

  test('a host-scoped builtin skill: device_id added, required replaced by ["device_id"], keys sorted', () => {
    const t = builtinTools('install').get('host_tail_file')
    assert.equal(
      t?.parameters,
      fromText(
        '{"properties":{"device_id":{"description":"Device id to run this skill on (required). Same id as the @-mention chip and the Prom device_id label.","type":"integer"},"lines":{"default":100,"description":"返回行数，默认 100","type":"integer"},"max_bytes":{"default":1048576,"description":"最多读取的尾部字节数，默认 1MiB","type":"integer"},"path":{"description":"文件绝对路径，必须以 / 开头且不含 ..","type":"string"}},"required":["device_id"],"type":"object"}',
      ),
    )
    assert.equal(
      t?.description,
      fromText(
        '读取文件最后 N 行（类似 tail -n）\n\nReturns: {lines, total_lines_returned, file_size, truncated, error?}',
      ),
    )
  })

  test('the manager-scoped web_search keeps its own required list; an enum with "" stays', () => {
    const t = builtinTools('install').get('web_search')
    const p = JSON.parse(toText(t?.parameters ?? ''))
    assert.deepEqual(p.required, ['query'])
    assert.deepEqual(p.properties.provider.enum, ['', 'searxng', 'tavily', 'brave'])
    assert.equal(p.properties.provider.default, '')
    assert.equal(p.properties.device_id, undefined)
  })

  test('HTML characters in a description are escaped as json.Marshal does', () => {
    const t = builtinTools('install').get('host_netns_inspect')
    assert.ok(t?.json.includes('`ip -n \\u003cns\\u003e`'))
  })

  test('a list of names keeps only those builtins (a release without some)', () => {
    const a = builtinTools('install', { present: ['get_host_load', 'host_tail_file', 'execute_k8s_action'] })
    assert.deepEqual([...a.keys()].sort(), ['execute_k8s_action', 'get_host_load', 'host_tail_file'])
    // The profile still decides: query_promql needs Prometheus.
    assert.equal(builtinTools('code-defaults', { present: ['query_promql'] }).size, 0)
  })

  test('web_search and execute_k8s_action when the turn allows them', () => {
    const a = assembleTools('install', [], { webSearch: true, k8sWrite: true })
    assert.equal(a.offered.length, 30)
  })

  test('a pack that takes a builtin name replaces it, and is filtered by that name too', () => {
    const pack = (name: string) => ({
      name,
      description: 'mine',
      parameters: '{"type":"object"}',
      json: `{"type":"function","function":{"name":"${name}","description":"mine","parameters":{"type":"object"}}}`,
      source: '/p/skill.json',
    })
    const a = assembleTools('install', [pack('query_promql'), pack('execute_k8s_action'), pack('my_tool')])
    assert.deepEqual(a.shadowed, ['execute_k8s_action', 'query_promql'])
    assert.equal(a.registry.get('query_promql')?.kind, 'pack')
    assert.equal(a.offered.length, 29)
    assert.equal(a.offered.find((t) => t.name === 'query_promql')?.description, 'mine')
    assert.ok(!a.offered.some((t) => t.name === 'execute_k8s_action'))
  })
})

describe('the first request (client.go toOpenAIReq, go-openai v1.41.2 field order)', () => {
  const tools = assembleTools('code-defaults', []).offered.slice(0, 1)
  test('a reasoning model (the default gpt-5.4): no temperature', () => {
    const b = toText(firstRequest('gpt-5.4', 'disk on <db-1>?', tools))
    assert.ok(
      b.startsWith(
        '{"model":"gpt-5.4","messages":[{"role":"user","content":"disk on \\u003cdb-1\\u003e?"}],"tools":[{"type":"function"',
      ),
    )
    assert.ok(!b.includes('"temperature"'))
  })
  test('another model: temperature 0.1 between messages and tools; no system message', () => {
    const b = toText(firstRequest('qwen3:8b', 'hi', tools))
    assert.ok(
      b.startsWith(
        '{"model":"qwen3:8b","messages":[{"role":"user","content":"hi"}],"temperature":0.1,"tools":[',
      ),
    )
  })
  test('isReasoningModel', () => {
    for (const m of ['o1', 'o3-mini', 'GPT-5', 'gpt-5.4', 'kimi-k2.5', 'deepseek-reasoner', ' o4 '])
      assert.ok(isReasoningModel(m), m)
    for (const m of ['gpt-4o', 'o1x', 'qwen3:8b', '', 'llama3.1']) assert.ok(!isReasoningModel(m), m)
  })
  test('normalizeOpenAIBaseURL: /v1 for a bare URL only', () => {
    assert.equal(normalizeBaseURL('http://192.168.8.5:11434'), 'http://192.168.8.5:11434/v1')
    assert.equal(normalizeBaseURL(' http://h:8000/ '), 'http://h:8000/v1')
    assert.equal(normalizeBaseURL('http://h:8000//?x=1'), 'http://h:8000/v1?x=1')
    assert.equal(normalizeBaseURL('http://h:8000/openai'), 'http://h:8000/openai')
    assert.equal(normalizeBaseURL('https://api.openai.com/v1'), 'https://api.openai.com/v1')
    assert.equal(normalizeBaseURL('localhost:11434'), 'localhost:11434')
  })
  test('compactJSON: white space out, HTML escaped inside strings only', () => {
    assert.equal(
      compactJSON(fromText('{ "a" : [1, "x <y> & z\\" "] }\n')),
      '{"a":[1,"x \\u003cy\\u003e \\u0026 z\\" "]}',
    )
    assert.equal(compactJSON('"\xe2\x80\xa8"'), '"\\u2028"')
  })
})

const dir = mkdtempSync(join(tmpdir(), 'eval-loop-'))
after(() => rmSync(dir, { recursive: true, force: true }))

function script(name: string, body: string): string {
  const p = join(dir, name)
  writeFileSync(p, `#!/bin/sh\n${body}\n`)
  chmodSync(p, 0o755)
  return p
}

function reply(over: Partial<Reply>): ChatOutcome {
  return {
    kind: 'reply',
    reply: {
      role: 'assistant',
      content: '',
      name: '',
      toolCallId: '',
      toolCalls: [],
      usage: { prompt: 10, completion: 2, total: 12 },
      ...over,
    },
  }
}

function packEntry(name: string): RegistryEntry {
  return {
    name,
    description: 'd',
    parameters: '{"type":"object"}',
    json: `{"type":"function","function":{"name":"${name}","description":"d","parameters":{"type":"object"}}}`,
    kind: 'pack',
    source: '/p',
  }
}

/**
 * One turn in which the model calls pack `k` (run by the executor from `entry`) once, then answers:
 * the tool message the second request carries, as the agent wrote it.
 */
async function toolMessageOfOneCall(entry: string, timeoutNs: bigint): Promise<string> {
  const registry = new Map([['k', packEntry('k')]])
  const bodies: string[] = []
  const replies = [reply({ toolCalls: [{ id: 'a', name: 'k', args: '{}' }] }), reply({ content: 'x' })]
  await runTurn(
    {
      model: 'm',
      prompt: 'p',
      registry,
      offered: [...registry.values()],
      webSearch: false,
      sampling: { refuses: false },
    },
    {
      chat: async (b) => {
        bodies.push(b)
        return replies[bodies.length - 1]
      },
      runPack: async (_e, params) => {
        const r = await execute({ key: 'k', entry, envAllow: null, timeoutNs }, params, { environ: {} })
        return { ok: r.ok, stdout: fromBuffer(r.stdout), error: r.error }
      },
      builtin: () => null,
      order: (t) => [...t],
    },
  )
  return JSON.parse(toText(bodies[1])).messages[2].content
}

describe('the follow-up messages (agent.go runInternal, fromOpenAIMessage, toolResultPayload)', () => {
  test('assistant text kept with its tool_calls; each result whole; refusals and errors as the agent words them', async () => {
    const entry = script('echo.sh', 'cat >/dev/null; printf \'{ "disk" : "<90%%>" }\\n\'')
    const registry = new Map<string, RegistryEntry>([
      ['disk_usage', packEntry('disk_usage')],
      ['get_host_load', { ...packEntry('get_host_load'), kind: 'builtin' }],
    ])
    const bodies: string[] = []
    const replies: ChatOutcome[] = [
      reply({
        content: 'Looking.',
        toolCalls: [
          { id: 'c1', name: 'disk_usage', args: '{"path":"/var","device_id":7,"a":{ "b" : 1 }}' },
          { id: 'c2', name: 'get_host_load', args: '' },
          { id: 'c3', name: 'web_search', args: '{}' },
          { id: 'c4', name: 'host_restart_service', args: '{}' },
          { id: 'c5', name: 'nope', args: '{}' },
          { id: 'c6', name: 'disk_usage', args: '{"path":' },
          { id: 'c7', name: 'get_host_load', args: '{}' },
        ],
      }),
      reply({ content: 'Done: 90%.' }),
    ]
    let n = 0
    const deps: LoopDeps = {
      chat: async (body) => {
        bodies.push(body)
        return replies[n++]
      },
      runPack: async (_e, params) => {
        assert.equal(params, '{"a":{"b":1},"path":"/var"}')
        const r = await execute(
          { key: 'disk_usage', entry, envAllow: null, timeoutNs: 5_000_000_000n },
          params,
          { environ: {} },
        )
        return { ok: r.ok, stdout: fromBuffer(r.stdout), error: r.error }
      },
      builtin: (name, args) =>
        args === '{}' && name === 'get_host_load' && n === 1 ? null : '{"load1":0.5}',
      order: (t) => [...t],
    }
    let first = true
    deps.builtin = (name) => {
      if (name !== 'get_host_load') return null
      const v = first ? '{"load1":0.5}' : null
      first = false
      return v
    }
    const r = await runTurn(
      {
        model: 'gpt-5.4',
        prompt: 'disk?',
        registry,
        offered: [...registry.values()],
        webSearch: false,
        sampling: { refuses: false },
      },
      deps,
    )
    assert.equal(r.answer, 'Done: 90%.')
    assert.equal(r.iterations, 2)
    assert.deepEqual(r.usage, { prompt: 20, completion: 4, total: 24 })
    expectGolden('test/golden/eval/follow-up.golden', `${toText(bodies[1])}\n`)
    const msgs = JSON.parse(toText(bodies[1])).messages
    assert.deepEqual(msgs[1].tool_calls[1], {
      id: 'c2',
      type: 'function',
      function: { name: 'get_host_load', arguments: '{}' },
    })
    assert.equal(msgs[2].content, '{"error":"","result":{"disk":"\\u003c90%\\u003e"}}')
    assert.equal(msgs[3].content, '{"load1":0.5}')
    assert.equal(
      msgs[4].content,
      '{"error":"agent: web_search disabled — toggle the globe icon in the chat input to enable"}',
    )
    assert.equal(
      msgs[5].content,
      '{"error":"agent: tool \\"host_restart_service\\" is mutating — not supported in legacy kernel; set ONGRID_AGENT_KERNEL=graph (SOP gating lives in the new graph runtime)"}',
    )
    assert.equal(msgs[6].content, '{"error":"not found: tool \\"nope\\""}')
    assert.equal(
      msgs[7].content,
      '{"error":"skill \\"disk_usage\\": decode args: unexpected end of JSON input"}',
    )
    assert.equal(
      msgs[8].content,
      '{"error":"eval: no canned result for builtin tool \\"get_host_load\\" in this case (give one in its tool_results)"}',
    )
    assert.deepEqual(Object.keys(msgs[2]), ['role', 'content', 'name', 'tool_call_id'])
  })

  test('the bridge decodes args into map[string]json.RawMessage', () => {
    assert.deepEqual(bridgeParams('k', '[1]'), {
      ok: false,
      error:
        'skill "k": decode args: json: cannot unmarshal array into Go value of type map[string]json.RawMessage',
    })
    assert.deepEqual(bridgeParams('k', 'null'), { ok: true, params: '{}' })
    assert.deepEqual(bridgeParams('k', '{"b":1,"a":2,"b":3,"edge_id":1}'), {
      ok: true,
      params: '{"a":2,"b":3}',
    })
  })

  test('a pack failure: {"error": the executor text, "result": null}', async () => {
    const entry = script('fail.sh', 'echo boom >&2; exit 3')
    assert.equal(
      await toolMessageOfOneCall(entry, 5_000_000_000n),
      '{"error":"subprocess skill k: exit 3 (stderr: boom)","result":null}',
    )
  })

  test('the only cut is the executor’s 16 MiB stdout cap: 9 KiB comes back whole, more than 16 MiB is refused', async () => {
    const whole = script(
      'big.sh',
      `cat >/dev/null; printf '{"x":"'; head -c 9216 /dev/zero | tr '\\0' a; printf '"}'`,
    )
    const huge = script(
      'huge.sh',
      `cat >/dev/null; printf '{"x":"'; head -c ${MAX_STDOUT + 10} /dev/zero | tr '\\0' a; printf '"}'`,
    )
    for (const [entry, check] of [
      [whole, (c: string) => assert.equal(c.length, '{"error":"","result":{"x":""}}'.length + 9216)],
      [
        huge,
        (c: string) =>
          assert.match(
            c,
            /^\{"error":"subprocess skill k: stdout is not valid JSON \(first 200B: \.\.\.a{200}\)","result":null\}$/,
          ),
      ],
    ] as const) {
      check(await toolMessageOfOneCall(entry, 20_000_000_000n))
    }
  })

  test('30 requests at most, then the agent’s apology; a sampling refusal is retried once without temperature', async () => {
    const registry = new Map([['k', { ...packEntry('k'), kind: 'builtin' as const }]])
    let n = 0
    const sampling = { refuses: false }
    const bodies: string[] = []
    const r = await runTurn(
      { model: 'qwen', prompt: 'p', registry, offered: [...registry.values()], webSearch: false, sampling },
      {
        chat: async (b) => {
          bodies.push(b)
          if (n++ === 0)
            return { kind: 'error', message: '400 temperature does not support 0.1 with this model' }
          return reply({ toolCalls: [{ id: 'a', name: 'k', args: '{}' }] })
        },
        runPack: async () => ({ ok: true, stdout: '{}', error: null }),
        builtin: () => '{}',
        order: (t) => [...t],
      },
    )
    assert.equal(r.capped, true)
    assert.equal(r.answer, fromText(apologyText(30)))
    assert.equal(r.calls.length, 30)
    assert.equal(bodies.length, 31)
    assert.ok(bodies[0].includes('"temperature":0.1'))
    assert.ok(!bodies[1].includes('"temperature"'))
    assert.equal(sampling.refuses, true)
  })
})
