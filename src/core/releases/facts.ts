/**
 * What differs between the ongrid manager releases ongrid-skill answers for: one entry per
 * release, each listing what that release adds to the one before it (the first, everything), every
 * fact with the manager file and line it was read from at that release's tag. Everything else the
 * project reproduces (the loader, the executor, the REST gate, the LLM bridge, the SKILL.md parser
 * and registry, the marketplace install) is the same text at every tag listed here.
 *
 * Adding a release is adding an entry at the end (docs/releases.md says what to read and which
 * tests to extend); code asks release.ts, never this list and never a version string.
 */

/** One fact: the name, and where it was read (`file:line` at the entry's tag). */
export type Fact = readonly [name: string, at: string]

export interface ReleaseEntry {
  /** The manager's tag, as GET /api/v1/version answers it (`manager_version`). */
  version: string
  /** The commit the tag names, where the facts were read. */
  commit: string
  /**
   * Builtin skill keys registered before the loader runs (init() in internal/skill/builtin, which
   * cmd/ongrid/main.go imports): a pack with one of these names is "already registered".
   */
  builtinSkillKeys?: readonly Fact[]
  /**
   * The legacy agent's tools (tools/registry.go, `Name:` of each Register): a pack of the same
   * name silently replaces the tool for the LLM.
   */
  legacyAgentTools?: readonly Fact[]
  /**
   * The graph agent's BaseTool bag (BuildBaseTools in tools/registry_basetool.go,
   * AppendHostFilesTools, install_skill in cmd/ongrid/main.go), lower_snake names only.
   */
  graphAgentTools?: readonly Fact[]
  /** The yaml tags chatruntime.Agent decodes (types.go): the others are unknown fields, ignored. */
  agentFields?: readonly Fact[]
}

export const RELEASES: readonly ReleaseEntry[] = [
  {
    version: 'v0.10.1',
    commit: '2699fc5dd7ed07d6b05831f8b2b61437edcf7689',
    builtinSkillKeys: [
      ['host_netns_inspect', 'internal/skill/builtin/host_netns_inspect.go:57'],
      ['host_probe_dns', 'internal/skill/builtin/probe_dns.go:22'],
      ['host_probe_http', 'internal/skill/builtin/probe_http.go:26'],
      ['host_probe_tcp', 'internal/skill/builtin/probe_tcp.go:22'],
      ['host_read_journal', 'internal/skill/builtin/read_journal.go:26'],
      ['host_restart_service', 'internal/skill/builtin/restart_service/restart_service.go:50'],
      ['host_tail_file', 'internal/skill/builtin/tail_file.go:25'],
      ['web_search', 'internal/skill/builtin/web_search.go:164'],
    ],
    legacyAgentTools: [
      ['query_k8s_snapshot', 'internal/manager/biz/aiops/tools/registry.go:158'],
      ['describe_k8s_resource', 'internal/manager/biz/aiops/tools/registry.go:165'],
      ['query_k8s_logs', 'internal/manager/biz/aiops/tools/registry.go:171'],
      ['list_database_sources', 'internal/manager/biz/aiops/tools/registry.go:191'],
      ['analyze_database_status', 'internal/manager/biz/aiops/tools/registry.go:198'],
      ['get_host_load', 'internal/manager/biz/aiops/tools/registry.go:234'],
      ['get_host_processes', 'internal/manager/biz/aiops/tools/registry.go:240'],
      ['query_promql', 'internal/manager/biz/aiops/tools/registry.go:247'],
      ['list_metric_catalog', 'internal/manager/biz/aiops/tools/registry.go:253'],
      ['query_logql', 'internal/manager/biz/aiops/tools/registry.go:261'],
      ['query_traceql', 'internal/manager/biz/aiops/tools/registry.go:269'],
      ['query_devices', 'internal/manager/biz/aiops/tools/registry.go:282'],
      ['get_topology', 'internal/manager/biz/aiops/tools/registry.go:288'],
      ['rank_edges', 'internal/manager/biz/aiops/tools/registry.go:296'],
      ['find_outlier_edges', 'internal/manager/biz/aiops/tools/registry.go:302'],
      ['query_incidents', 'internal/manager/biz/aiops/tools/registry.go:310'],
      ['get_incident_detail', 'internal/manager/biz/aiops/tools/registry.go:316'],
      ['query_alert_rules', 'internal/manager/biz/aiops/tools/registry.go:322'],
      ['get_edge_summary', 'internal/manager/biz/aiops/tools/registry.go:330'],
      ['correlate_incident', 'internal/manager/biz/aiops/tools/registry.go:342'],
    ],
    graphAgentTools: [
      ['get_host_load', 'internal/manager/biz/aiops/tools/registry_basetool.go:80'],
      ['get_host_processes', 'internal/manager/biz/aiops/tools/registry_basetool.go:81'],
      ['query_promql', 'internal/manager/biz/aiops/tools/registry_basetool.go:85'],
      ['list_metric_catalog', 'internal/manager/biz/aiops/tools/registry_basetool.go:86'],
      ['list_database_sources', 'internal/manager/biz/aiops/tools/registry_basetool.go:91'],
      ['analyze_database_status', 'internal/manager/biz/aiops/tools/registry_basetool.go:96'],
      ['query_logql', 'internal/manager/biz/aiops/tools/registry_basetool.go:100'],
      ['query_traceql', 'internal/manager/biz/aiops/tools/registry_basetool.go:104'],
      ['query_knowledge', 'internal/manager/biz/aiops/tools/registry_basetool.go:109'],
      ['list_repo_sources', 'internal/manager/biz/aiops/tools/registry_basetool.go:117'],
      ['read_source', 'internal/manager/biz/aiops/tools/registry_basetool.go:118'],
      ['grep_source', 'internal/manager/biz/aiops/tools/registry_basetool.go:119'],
      ['query_k8s_snapshot', 'internal/manager/biz/aiops/tools/registry_basetool.go:125'],
      ['describe_k8s_resource', 'internal/manager/biz/aiops/tools/registry_basetool.go:127'],
      ['query_k8s_logs', 'internal/manager/biz/aiops/tools/registry_basetool.go:128'],
      ['execute_k8s_action', 'internal/manager/biz/aiops/tools/registry_basetool.go:129'],
      ['query_devices', 'internal/manager/biz/aiops/tools/registry_basetool.go:135'],
      ['get_topology', 'internal/manager/biz/aiops/tools/registry_basetool.go:138'],
      ['rank_edges', 'internal/manager/biz/aiops/tools/registry_basetool.go:142'],
      ['find_outlier_edges', 'internal/manager/biz/aiops/tools/registry_basetool.go:143'],
      ['query_incidents', 'internal/manager/biz/aiops/tools/registry_basetool.go:147'],
      ['get_incident_detail', 'internal/manager/biz/aiops/tools/registry_basetool.go:148'],
      ['query_alert_rules', 'internal/manager/biz/aiops/tools/registry_basetool.go:149'],
      ['query_change_events', 'internal/manager/biz/aiops/tools/registry_basetool.go:154'],
      ['get_edge_summary', 'internal/manager/biz/aiops/tools/registry_basetool.go:159'],
      ['correlate_incident', 'internal/manager/biz/aiops/tools/registry_basetool.go:164'],
      ['draft_config_change', 'internal/manager/biz/aiops/tools/registry_basetool.go:174'],
      ['apply_config_change', 'internal/manager/biz/aiops/tools/registry_basetool.go:175'],
      ['host_restart_service', 'internal/manager/biz/aiops/tools/registry_basetool.go:198'],
      ['expand_topology', 'internal/manager/biz/aiops/tools/registry_basetool.go:208'],
      ['find_topology_node', 'internal/manager/biz/aiops/tools/registry_basetool.go:209'],
      ['host_bash', 'internal/manager/biz/aiops/tools/registry_basetool.go:217'],
      ['cloud_bash', 'internal/manager/biz/aiops/tools/registry_basetool.go:224'],
      ['send_im_message', 'internal/manager/biz/aiops/tools/registry_basetool.go:227'],
      ['serve_page', 'internal/manager/biz/aiops/tools/registry_basetool.go:230'],
      ['host_find_large_files', 'internal/manager/biz/aiops/tools/host_files_register.go:38'],
      ['host_du_summary', 'internal/manager/biz/aiops/tools/host_files_register.go:39'],
      ['host_stat_file', 'internal/manager/biz/aiops/tools/host_files_register.go:40'],
      ['install_skill', 'cmd/ongrid/main.go:2049'],
    ],
    agentFields: [
      ['name', 'internal/manager/biz/aiops/chatruntime/types.go:304'],
      ['description', 'internal/manager/biz/aiops/chatruntime/types.go:307'],
      ['when_to_use', 'internal/manager/biz/aiops/chatruntime/types.go:311'],
      ['tools', 'internal/manager/biz/aiops/chatruntime/types.go:314'],
      ['disallowed_tools', 'internal/manager/biz/aiops/chatruntime/types.go:318'],
      ['permission_mode', 'internal/manager/biz/aiops/chatruntime/types.go:321'],
      ['max_turns', 'internal/manager/biz/aiops/chatruntime/types.go:324'],
      ['model', 'internal/manager/biz/aiops/chatruntime/types.go:328'],
      ['critical_reminder', 'internal/manager/biz/aiops/chatruntime/types.go:332'],
      ['initial_prompt', 'internal/manager/biz/aiops/chatruntime/types.go:335'],
      ['background', 'internal/manager/biz/aiops/chatruntime/types.go:338'],
      ['omit_claude_md', 'internal/manager/biz/aiops/chatruntime/types.go:342'],
      ['metadata', 'internal/manager/biz/aiops/chatruntime/types.go:358'],
    ],
  },
  {
    version: 'v0.10.2',
    commit: '7229862e11097fd055ff29c6b1916e579d8e9521',
  },
  {
    version: 'v0.11.0',
    commit: '82e960d8c69a3dde1ed18d31cc35f44c8470cd62',
  },
  {
    version: 'v0.11.1',
    commit: 'a70ce82f8ce47db3a2368cc81984b6e97507311d',
  },
  {
    version: 'v0.12.0',
    commit: 'ba6f462802fef8f856169529ead4a8f12bb97feb',
    legacyAgentTools: [['execute_k8s_action', 'internal/manager/biz/aiops/tools/registry.go:201']],
    graphAgentTools: [
      ['query_network_devices', 'internal/manager/biz/aiops/tools/registry_basetool.go:138'],
      ['query_network_interfaces', 'internal/manager/biz/aiops/tools/registry_basetool.go:139'],
      ['get_network_neighbors', 'internal/manager/biz/aiops/tools/registry_basetool.go:215'],
    ],
  },
  {
    version: 'v0.13.0',
    commit: '1d00df65e0e7db129228588a339f5eac0bb7a734',
    builtinSkillKeys: [
      ['capture_pcap', 'internal/skill/builtin/capture_pcap.go:12'],
      ['get_packet_capture', 'internal/skill/builtin/capture_pcap.go:13'],
      ['host_probe_ping', 'internal/skill/builtin/probe_ping.go:22'],
    ],
    graphAgentTools: [
      ['capture_pcap', 'internal/manager/biz/aiops/tools/registry_basetool.go:205'],
      ['get_packet_capture_session', 'internal/manager/biz/aiops/tools/registry_basetool.go:206'],
      ['send_notification', 'internal/manager/biz/aiops/tools/registry_basetool.go:238'],
    ],
    agentFields: [
      ['capabilities', 'internal/manager/biz/aiops/chatruntime/types.go:330'],
      ['can_delegate', 'internal/manager/biz/aiops/chatruntime/types.go:334'],
    ],
  },
  {
    version: 'v0.13.1',
    commit: 'bec231e5f5f9ebe57605812e8ff2aa6a39c08107',
  },
  {
    version: 'v0.13.2',
    commit: '2125f298643cdb0f430b8f60eb4457cabb015e4e',
  },
  {
    version: 'v0.13.3',
    commit: 'e1f17a05ad56637dbe5c738aaf2ff9451592e2a3',
  },
  {
    version: 'v0.13.4',
    commit: '8ce47f62f928de64d02eedf06a1340b160252971',
  },
]
