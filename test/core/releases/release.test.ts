import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { EXIT, UserError } from '../../../src/core/errors.js'
import {
  chooseManagerRelease,
  DEFAULT_MANAGER_VERSION,
  graphAgentToolNames,
  legacyAgentToolNames,
  managerRelease,
  SUPPORTED_MANAGER_VERSIONS,
} from '../../../src/core/releases/release.js'
import { REPO } from '../../helpers/cli.js'

/*
 * Goldens read from the manager's code at each tag (git show <tag>:<file>), written here by hand:
 * - builtin keys: the Key of each skill.Register in an init() of internal/skill/builtin/*.go
 *   (restart_service/ through doc.go's import), imported by cmd/ongrid/main.go;
 * - legacy tools: each `Name:` of r.Register in internal/manager/biz/aiops/tools/registry.go,
 *   through its ToolName constant;
 * - graph tools: each New…Tool in BuildBaseTools (tools/registry_basetool.go), the three of
 *   AppendHostFilesTools (tools/host_files_register.go) and install_skill (cmd/ongrid/main.go),
 *   lower_snake names only (AgentTool, SendMessage, TaskStop, ToolSearch are not);
 * - agent fields: the yaml tags of chatruntime.Agent (chatruntime/types.go).
 */
const TAGS = [
  'v0.10.1',
  'v0.10.2',
  'v0.11.0',
  'v0.11.1',
  'v0.12.0',
  'v0.13.0',
  'v0.13.1',
  'v0.13.2',
  'v0.13.3',
  'v0.13.4',
]
const UP_TO_12 = TAGS.slice(0, 5)
const FROM_13 = TAGS.slice(5)
const UP_TO_11 = TAGS.slice(0, 4)

const BUILTINS_10 = [
  'host_netns_inspect',
  'host_probe_dns',
  'host_probe_http',
  'host_probe_tcp',
  'host_read_journal',
  'host_restart_service',
  'host_tail_file',
  'web_search',
]
const BUILTINS_13 = [...BUILTINS_10, 'capture_pcap', 'get_packet_capture', 'host_probe_ping']

const LEGACY_10 = [
  'get_host_load',
  'get_host_processes',
  'query_promql',
  'list_metric_catalog',
  'query_logql',
  'query_traceql',
  'query_devices',
  'get_topology',
  'rank_edges',
  'find_outlier_edges',
  'query_incidents',
  'get_incident_detail',
  'query_alert_rules',
  'get_edge_summary',
  'correlate_incident',
  'query_k8s_snapshot',
  'describe_k8s_resource',
  'query_k8s_logs',
  'list_database_sources',
  'analyze_database_status',
]
const LEGACY_12 = [...LEGACY_10, 'execute_k8s_action']

const GRAPH_10 = [
  'get_host_load',
  'get_host_processes',
  'query_promql',
  'list_metric_catalog',
  'list_database_sources',
  'analyze_database_status',
  'query_logql',
  'query_traceql',
  'query_knowledge',
  'list_repo_sources',
  'read_source',
  'grep_source',
  'query_k8s_snapshot',
  'describe_k8s_resource',
  'query_k8s_logs',
  'execute_k8s_action',
  'query_devices',
  'get_topology',
  'rank_edges',
  'find_outlier_edges',
  'query_incidents',
  'get_incident_detail',
  'query_alert_rules',
  'query_change_events',
  'get_edge_summary',
  'correlate_incident',
  'draft_config_change',
  'apply_config_change',
  'host_restart_service',
  'expand_topology',
  'find_topology_node',
  'host_bash',
  'cloud_bash',
  'send_im_message',
  'serve_page',
  'host_find_large_files',
  'host_du_summary',
  'host_stat_file',
  'install_skill',
]
const GRAPH_12 = [...GRAPH_10, 'query_network_devices', 'query_network_interfaces', 'get_network_neighbors']
const GRAPH_13 = [...GRAPH_12, 'capture_pcap', 'get_packet_capture_session', 'send_notification']

const AGENT_10 = [
  'name',
  'description',
  'when_to_use',
  'tools',
  'disallowed_tools',
  'permission_mode',
  'max_turns',
  'model',
  'critical_reminder',
  'initial_prompt',
  'background',
  'omit_claude_md',
  'metadata',
]
const AGENT_13 = [...AGENT_10, 'capabilities', 'can_delegate']

const sorted = (xs: Iterable<string>) => [...xs].sort()

describe('manager releases', () => {
  test('the ten releases, oldest first; the newest is the default', () => {
    assert.deepEqual(SUPPORTED_MANAGER_VERSIONS, TAGS)
    assert.equal(DEFAULT_MANAGER_VERSION, 'v0.13.4')
    assert.equal(managerRelease().version, 'v0.13.4')
    assert.equal(managerRelease().isDefault, true)
    assert.equal(managerRelease('v0.13.3').isDefault, false)
    // `--version` (bin/run.js, which loads nothing) says the default from package.json.
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'))
    assert.equal(pkg.ongridManagerRelease, DEFAULT_MANAGER_VERSION)
  })

  test('builtin keys: 8 up to v0.12.0; v0.13.0 adds capture_pcap, get_packet_capture, host_probe_ping', () => {
    for (const t of UP_TO_12)
      assert.deepEqual(sorted(managerRelease(t).builtinSkillKeys), sorted(BUILTINS_10), t)
    for (const t of FROM_13)
      assert.deepEqual(sorted(managerRelease(t).builtinSkillKeys), sorted(BUILTINS_13), t)
  })

  test("the legacy agent's tools: v0.12.0 adds execute_k8s_action", () => {
    for (const t of UP_TO_11) assert.deepEqual(sorted(legacyAgentToolNames(t)), sorted(LEGACY_10), t)
    for (const t of TAGS.slice(4)) assert.deepEqual(sorted(legacyAgentToolNames(t)), sorted(LEGACY_12), t)
    assert.deepEqual(sorted(legacyAgentToolNames()), sorted(LEGACY_12))
  })

  test("the graph agent's tools: v0.12.0 adds the network three, v0.13.0 the capture two and send_notification", () => {
    for (const t of UP_TO_11) assert.deepEqual(sorted(graphAgentToolNames(t)), sorted(GRAPH_10), t)
    assert.deepEqual(sorted(graphAgentToolNames('v0.12.0')), sorted(GRAPH_12))
    for (const t of FROM_13) assert.deepEqual(sorted(graphAgentToolNames(t)), sorted(GRAPH_13), t)
  })

  test('chatruntime.Agent decodes capabilities and can_delegate from v0.13.0', () => {
    for (const t of UP_TO_12) assert.deepEqual(sorted(managerRelease(t).agentFields), sorted(AGENT_10), t)
    for (const t of FROM_13) assert.deepEqual(sorted(managerRelease(t).agentFields), sorted(AGENT_13), t)
  })

  test('each fact names the release and the manager file and line it was read from', () => {
    const r = managerRelease('v0.13.4')
    assert.deepEqual(r.source('builtinSkillKeys', 'host_probe_ping'), {
      version: 'v0.13.0',
      at: 'internal/skill/builtin/probe_ping.go:22',
    })
    assert.deepEqual(r.source('legacyAgentTools', 'execute_k8s_action'), {
      version: 'v0.12.0',
      at: 'internal/manager/biz/aiops/tools/registry.go:201',
    })
    assert.deepEqual(r.source('agentFields', 'can_delegate'), {
      version: 'v0.13.0',
      at: 'internal/manager/biz/aiops/chatruntime/types.go:334',
    })
    assert.equal(managerRelease('v0.12.0').source('builtinSkillKeys', 'host_probe_ping'), null)
    for (const t of TAGS) {
      const rel = managerRelease(t)
      const kinds = ['builtinSkillKeys', 'legacyAgentTools', 'graphAgentTools'] as const
      for (const k of kinds) {
        for (const name of rel[k])
          assert.match(rel.source(k, name)?.at ?? '', /^[a-z_/]+\.go:\d+$/, `${t} ${k} ${name}`)
      }
      assert.match(rel.commit, /^[0-9a-f]{40}$/)
    }
  })
})

describe('choosing the release', () => {
  const refusal = (f: () => unknown) => {
    try {
      f()
    } catch (e) {
      assert.ok(e instanceof UserError)
      assert.equal(e.exitCode, EXIT.usage)
      return e.message
    }
    assert.fail('not refused')
  }

  test('flag over env over config; the newest when none names one', () => {
    const config = { value: 'v0.11.0', path: '/w/.ongrid-skill.yaml' }
    assert.deepEqual(
      [chooseManagerRelease({ flag: 'v0.10.1', env: 'v0.10.2', config })].map((c) => [
        c.release.version,
        c.origin,
      ]),
      [['v0.10.1', 'flag']],
    )
    const env = chooseManagerRelease({ env: 'v0.10.2', config })
    assert.deepEqual([env.release.version, env.origin], ['v0.10.2', 'env'])
    const fromConfig = chooseManagerRelease({ env: '', config })
    assert.deepEqual([fromConfig.release.version, fromConfig.origin], ['v0.11.0', 'config'])
    const none = chooseManagerRelease({})
    assert.deepEqual([none.release.version, none.origin], ['v0.13.4', 'default'])
  })

  test('any other value: one line naming where it came from and the releases supported', () => {
    const all = TAGS.join(', ')
    assert.equal(
      refusal(() => chooseManagerRelease({ flag: 'v0.13.5' })),
      `--manager-version: unsupported manager version "v0.13.5": supported are ${all}`,
    )
    assert.equal(
      refusal(() => chooseManagerRelease({ env: '0.13.4' })),
      `ONGRID_MANAGER_VERSION: unsupported manager version "0.13.4": supported are ${all}`,
    )
    assert.equal(
      refusal(() => chooseManagerRelease({ config: { value: 'latest', path: '/w/.ongrid-skill.yaml' } })),
      `/w/.ongrid-skill.yaml: manager_version: unsupported manager version "latest": supported are ${all}`,
    )
    // The flag is judged even when a good env value is there.
    assert.match(
      refusal(() => chooseManagerRelease({ flag: '', env: 'v0.13.4' })),
      /^--manager-version: /,
    )
    assert.match(
      refusal(() => managerRelease('v0.9.1')),
      /unsupported manager version "v0\.9\.1"/,
    )
  })
})
