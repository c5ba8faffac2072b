/**
 * Names the manager's LLM agents already use for their own tools, as of ongrid manager
 * v0.13.4 (commit 2e68893), from the research note §2.5 (internal/manager/biz/aiops/tools/).
 */

/**
 * The legacy kernel's closure tool registry (tools/registry.go): a subprocess skill with one
 * of these names silently REPLACES the built-in tool for the legacy agent (Register overwrites,
 * and the skill bridge runs after the closures are registered).
 */
export const LEGACY_TOOL_NAMES: readonly string[] = [
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
  'execute_k8s_action',
  'list_database_sources',
  'analyze_database_status',
]

/**
 * The graph kernel's BaseTool bag (tools/registry_basetool.go, host_files_register.go, main.go):
 * the inventory bridge skips a BaseTool whose name is already a skill, so /api/v1/skills/<name>
 * runs the pack while the graph LLM keeps its own tool. Names that are not lower_snake
 * (AgentTool, SendMessage, TaskStop, ToolSearch) can never be a skill name and are left out.
 */
export const GRAPH_TOOL_NAMES: readonly string[] = [
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
  'query_network_devices',
  'query_network_interfaces',
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
  'capture_pcap',
  'get_packet_capture_session',
  'expand_topology',
  'find_topology_node',
  'get_network_neighbors',
  'host_bash',
  'cloud_bash',
  'send_notification',
  'send_im_message',
  'serve_page',
  'host_find_large_files',
  'host_du_summary',
  'host_stat_file',
  'install_skill',
]
