/**
 * The builtin tools the manager's aiops tool registry holds at boot (v0.13.4), as data read from
 * the manager's source, each with the file it was read from:
 *
 * - Registry tools (internal/manager/biz/aiops/tools): name, description and JSON Schema are the
 *   Go constants of each tool's file. Which are registered depends on the configuration
 *   (registry.go NewRegistry, SetPluginConfigLister, SetK8sSnapshotReader, SetK8sActionProposer
 *   in cmd/ongrid/main.go's boot order): `needs: 'prom'` only when Prometheus is on
 *   (ONGRID_PROM_ENABLED; the compose install turns it on, the binary's default is off); Loki and
 *   Tempo query URLs default to the compose service names, so query_logql and query_traceql are
 *   registered either way.
 * - Builtin skills (internal/skill/builtin): every safe one becomes a tool through
 *   RegisterSafeSkills (tools/skill_bridge.go), its schema built from its ParamSchema
 *   (internal/skill/schema.go ToJSONSchema). capture_pcap and host_restart_service are mutating:
 *   not tools.
 *
 * No code of the manager is here: the texts and schemas the LLM reads, nothing else.
 */

/** What a registry tool needs from the manager's configuration to be registered. */
export type Needs = 'always' | 'prom'

export interface RegistryTool {
  name: string
  /** The manager file the name, description and schema were read from (v0.13.4). */
  source: string
  needs: Needs
  description: string
  /** The schema as written in the Go source (a json.RawMessage: sent compacted, key order kept). */
  schema: string
}

export const REGISTRY_TOOLS: readonly RegistryTool[] = [
  {
    name: 'get_host_load',
    source: 'internal/manager/biz/aiops/tools/host_load.go',
    needs: 'always',
    description:
      'Return current CPU percent, memory percent, and 1/5/15-minute load averages of the named edge host.',
    schema:
      '{\n  "type": "object",\n  "properties": {\n    "edge_name": {\n      "type": "string",\n      "description": "Name of the edge as set when the edge was created."\n    }\n  },\n  "required": ["edge_name"]\n}',
  },
  {
    name: 'get_host_processes',
    source: 'internal/manager/biz/aiops/tools/host_processes.go',
    needs: 'always',
    description: 'Return the top-N processes on the named edge host, sorted by CPU or memory usage.',
    schema:
      '{\n  "type": "object",\n  "properties": {\n    "edge_name": {\n      "type": "string",\n      "description": "Name of the edge as set when the edge was created."\n    },\n    "top_n": {\n      "type": "integer",\n      "minimum": 1,\n      "maximum": 100,\n      "description": "How many processes to return (default 10)."\n    },\n    "sort_by": {\n      "type": "string",\n      "enum": ["cpu", "mem"],\n      "description": "Sort key: cpu or mem (default cpu)."\n    }\n  },\n  "required": ["edge_name"]\n}',
  },
  {
    name: 'query_promql',
    source: 'internal/manager/biz/aiops/tools/query_promql.go',
    needs: 'prom',
    description:
      "Run a PromQL range query against the cluster's Prometheus. Use this when you need any host or container metric beyond the few host-level fields the basic tools return. For fleet or multi-device questions, write one vectorized PromQL expression with by(device_id, ...) / regex selectors / topk instead of one query per device or metric. Returns the raw Prom HTTP API response.",
    schema:
      '{\n  "type": "object",\n  "properties": {\n    "expr": {\n      "type": "string",\n      "description": "PromQL expression. Prefer one vectorized expression for multiple devices/labels. Example: \\"avg by (device_id) (rate(node_cpu_seconds_total{mode!=\\\\\\"idle\\\\\\"}[5m]))\\". For filesystem percent, combine numerator/denominator in one expression instead of separate used/size queries."\n    },\n    "lookback_seconds": {\n      "type": "integer",\n      "minimum": 60,\n      "maximum": 604800,\n      "description": "How far back to query in seconds (default 300 = 5 minutes; max 604800 = 7d). Use one 7d range query for weekly trends instead of repeating short lookbacks."\n    }\n  },\n  "required": ["expr"]\n}',
  },
  {
    name: 'list_metric_catalog',
    source: 'internal/manager/biz/aiops/tools/metric_catalog_tool.go',
    needs: 'prom',
    description:
      'List currently scraped Prometheus metric names with representative labels. Use this before drafting metric-based alert rules so the draft can use current metric names and label keys. sample_labels are examples for understanding available labels; do not copy sample label values into selectors unless the user explicitly requested that exact source.',
    schema:
      '{\n  "type": "object",\n  "properties": {\n    "query": {\n      "type": "string",\n      "description": "Natural-language or keyword hint, e.g. \'MySQL connection usage\', \'Redis memory usage\', \'exporter down\', \'http p95 latency\', \'queue depth\'. The tool uses it to rank returned metric names."\n    },\n    "prefixes": {\n      "type": "array",\n      "items": {"type": "string"},\n      "description": "Optional metric-name prefixes to restrict discovery, e.g. [\'mysql_\'], [\'pg_\'], [\'redis_\'], [\'mongodb_\'], [\'http_\', \'custom_\', \'node_\']."\n    },\n    "metric_regex": {\n      "type": "string",\n      "description": "Optional RE2 regex for __name__. It must not match the empty string. Omit to list all current metric names."\n    },\n    "selector": {\n      "type": "string",\n      "description": "Optional Prometheus label selector fragment, with or without braces, e.g. \'job=\\"api\\"\' or \'{device_id=\\"5\\"}\'."\n    },\n    "labels": {\n      "type": "object",\n      "additionalProperties": true,\n      "description": "Optional exact label matchers to combine with selector, e.g. {\'device_id\': 5, \'ongrid_source\': \'custom:api\'}."\n    },\n    "max_metrics": {\n      "type": "integer",\n      "minimum": 1,\n      "maximum": 200,\n      "description": "Maximum metric names to return. Default 80, cap 200."\n    },\n    "include_label_samples": {\n      "type": "boolean",\n      "description": "Include up to three representative label sets per metric. Default true."\n    }\n  }\n}',
  },
  {
    name: 'query_logql',
    source: 'internal/manager/biz/aiops/tools/query_logql.go',
    needs: 'always',
    description:
      'Run a LogQL range query against Loki. Use this to investigate log patterns, error counts, or filter a specific device. When device_id is set, start with {} plus a line filter because the backend injects the device selector; do not guess job/hostname/instance labels. Once a scoped query returns matching lines, summarize them unless the user asks for a narrower follow-up. Returns the raw Loki response (streams or matrix).',
    schema:
      '{\n  "type": "object",\n  "properties": {\n    "query": {\n      "type": "string",\n      "description": "LogQL expression. Example: \\"{unit=\\\\\\"nginx.service\\\\\\"} |= \\\\\\"error\\\\\\"\\"."\n    },\n    "device_id": {\n      "type": "integer",\n      "minimum": 1,\n      "description": "Optional stable Device ID. The backend injects device_id into the LogQL stream selector and rejects a conflicting selector."\n    },\n    "start": {\n      "type": "string",\n      "description": "RFC3339 start time. Defaults to now-1h."\n    },\n    "end": {\n      "type": "string",\n      "description": "RFC3339 end time. Defaults to now."\n    },\n    "limit": {\n      "type": "integer",\n      "minimum": 1,\n      "maximum": 5000,\n      "description": "Max number of result rows (default 200)."\n    },\n    "direction": {\n      "type": "string",\n      "enum": ["backward", "forward"],\n      "description": "Order of results, default \\"backward\\" (newest first)."\n    }\n  },\n  "required": ["query"]\n}',
  },
  {
    name: 'query_traceql',
    source: 'internal/manager/biz/aiops/tools/query_traceql.go',
    needs: 'always',
    description:
      'Run a TraceQL search against Tempo. Use this to find traces by service / operation / latency / status. When a named device has no numeric ID, call query_devices once first; then pass its stable device_id instead of guessing trace attributes. Returns trace summaries (id, service, root span name, duration, span count).',
    schema:
      '{\n  "type": "object",\n  "properties": {\n    "query": {\n      "type": "string",\n      "description": "TraceQL expression. May be empty if service/operation/duration filters are given."\n    },\n    "device_id": {\n      "type": "integer",\n      "minimum": 1,\n      "description": "Optional stable Device ID. The backend injects resource.device_id into TraceQL and rejects a conflicting selector."\n    },\n    "service": {\n      "type": "string",\n      "description": "Filter by resource.service.name (tag mode)."\n    },\n    "operation": {\n      "type": "string",\n      "description": "Filter by span name (tag mode)."\n    },\n    "start": {\n      "type": "string",\n      "description": "RFC3339 start time. Defaults to now-1h."\n    },\n    "end": {\n      "type": "string",\n      "description": "RFC3339 end time. Defaults to now."\n    },\n    "limit": {\n      "type": "integer",\n      "minimum": 1,\n      "maximum": 1000,\n      "description": "Max trace summaries to return (default 50)."\n    },\n    "min_duration": {\n      "type": "string",\n      "description": "Minimum trace duration as a Go duration string (e.g. \\"100ms\\", \\"2s\\")."\n    },\n    "max_duration": {\n      "type": "string",\n      "description": "Maximum trace duration as a Go duration string."\n    }\n  }\n}',
  },
  {
    name: 'query_devices',
    source: 'internal/manager/biz/aiops/tools/query_edges.go',
    needs: 'always',
    description:
      'List ongrid-managed devices (hosts) filtered by role, online status, last-seen freshness, name substring, or IP address. Use this whenever the question is about which machines exist or which ones match a coarse attribute. Returns an array of {device_id, name, hostname, ip_address, online, roles, last_seen_at}; use device_id (NOT edge_id) in any PromQL/LogQL/TraceQL you generate.',
    schema:
      '{\n  "type": "object",\n  "properties": {\n    "role": {\n      "type": "string",\n      "enum": ["server", "storage", "network", "database"],\n      "description": "Filter to devices that carry this role bit. Optional."\n    },\n    "status": {\n      "type": "string",\n      "enum": ["online", "offline"],\n      "description": "Filter by current online status. Optional."\n    },\n    "last_seen_within_minutes": {\n      "type": "integer",\n      "minimum": 1,\n      "description": "Only return devices whose last_seen_at is within the last N minutes. Optional."\n    },\n    "name_contains": {\n      "type": "string",\n      "description": "Substring filter against device name (case-sensitive)."\n    },\n    "ip_contains": {\n      "type": "string",\n      "description": "Substring filter against device IP address. Optional."\n    },\n    "limit": {\n      "type": "integer",\n      "minimum": 1,\n      "maximum": 500,\n      "description": "Max rows returned (default 50)."\n    }\n  }\n}',
  },
  {
    name: 'get_topology',
    source: 'internal/manager/biz/aiops/tools/get_topology.go',
    needs: 'always',
    description:
      "Return high-level deployment topology: manager version, edge fleet size + online count, configured Prom/Loki/Tempo URLs, channel count, enabled rule count. Use this for questions like 'how big is the fleet' or 'is loki configured'.",
    schema: '{\n  "type": "object",\n  "properties": {}\n}',
  },
  {
    name: 'rank_edges',
    source: 'internal/manager/biz/aiops/tools/rank_edges.go',
    needs: 'prom',
    description:
      "Rank edges by a closed-set host metric (cpu, mem, disk, load, composite) and return top-N or bottom-N. Use this for 'find the most/least loaded N machines' style questions. Composite is the unweighted mean of cpu_pct + mem_pct + disk_used_pct.",
    schema:
      '{\n  "type": "object",\n  "properties": {\n    "by": {\n      "type": "string",\n      "enum": ["cpu", "mem", "disk", "load", "composite"],\n      "description": "Which metric to rank on. cpu/mem/disk are the same closed-set the alert evaluator uses."\n    },\n    "limit": {\n      "type": "integer",\n      "minimum": 1,\n      "maximum": 50,\n      "description": "How many edges to return (default 5)."\n    },\n    "direction": {\n      "type": "string",\n      "enum": ["top", "bottom"],\n      "description": "top = highest values; bottom = lowest values (default top)."\n    }\n  },\n  "required": ["by"]\n}',
  },
  {
    name: 'find_outlier_edges',
    source: 'internal/manager/biz/aiops/tools/find_outlier_edges.go',
    needs: 'prom',
    description:
      "Find edges whose metric value is more than N standard deviations above the fleet mean. Use this for 'who's an outlier on cpu/mem/disk' style questions. Default sigma is 2.",
    schema:
      '{\n  "type": "object",\n  "properties": {\n    "metric": {\n      "type": "string",\n      "enum": ["cpu", "mem", "disk"],\n      "description": "Which closed-set host metric to compare across the fleet."\n    },\n    "sigma": {\n      "type": "number",\n      "minimum": 0.5,\n      "maximum": 10,\n      "description": "z-score threshold (default 2). Edges with z > sigma are returned."\n    }\n  },\n  "required": ["metric"]\n}',
  },
  {
    name: 'query_incidents',
    source: 'internal/manager/biz/aiops/tools/query_incidents.go',
    needs: 'always',
    description:
      "List ongrid alert incidents filtered by severity, status, edge, rule_key and a since-window (in minutes). Use this for questions like '过去 24h 有几条 critical incident' or 'show open incidents on edge X'. Returns array of {id, title, severity, status, rule, edge_id, first_fired_at, last_fired_at}.",
    schema:
      '{\n  "type": "object",\n  "properties": {\n    "severity": {\n      "type": "string",\n      "enum": ["info", "warning", "critical"],\n      "description": "Filter by severity. Optional."\n    },\n    "status": {\n      "type": "string",\n      "enum": ["open", "acknowledged", "silenced", "resolved"],\n      "description": "Filter by lifecycle status. Optional."\n    },\n    "since_minutes": {\n      "type": "integer",\n      "minimum": 1,\n      "description": "Only return incidents whose last_fired_at is within the last N minutes. Default 1440 (24h)."\n    },\n    "edge_id": {\n      "type": "integer",\n      "description": "Filter to incidents on a specific edge. Optional."\n    },\n    "rule_key": {\n      "type": "string",\n      "description": "Filter by rule key (e.g. \'cpu_high\'). Optional."\n    },\n    "limit": {\n      "type": "integer",\n      "minimum": 1,\n      "maximum": 500,\n      "description": "Max rows returned (default 50)."\n    }\n  }\n}',
  },
  {
    name: 'get_incident_detail',
    source: 'internal/manager/biz/aiops/tools/get_incident_detail.go',
    needs: 'always',
    description:
      'Return the full incident row plus its event timeline (firing, ack, resolve, notification_sent/failed). Use this whenever the question is about what happened on a specific incident id.',
    schema:
      '{\n  "type": "object",\n  "properties": {\n    "incident_id": {\n      "type": "integer",\n      "minimum": 1,\n      "description": "Numeric incident id from query_incidents."\n    }\n  },\n  "required": ["incident_id"]\n}',
  },
  {
    name: 'query_alert_rules',
    source: 'internal/manager/biz/aiops/tools/query_alert_rules.go',
    needs: 'always',
    description:
      "List ongrid alert rules filtered by kind, enabled flag, or a name substring. Use this for questions like '这条规则是谁在用' or 'show all metric_threshold rules'. Returns array of {id, rule_key, kind, name, scope_type, severity, enabled}.",
    schema:
      '{\n  "type": "object",\n  "properties": {\n    "kind": {\n      "type": "string",\n      "description": "Filter by rule kind (metric_threshold | metric_anomaly | metric_forecast | metric_burn_rate | metric_raw | log_match | log_volume | trace_latency | trace_error_rate)."\n    },\n    "enabled": {\n      "type": "boolean",\n      "description": "Filter by enabled flag. Optional."\n    },\n    "name_contains": {\n      "type": "string",\n      "description": "Substring filter against rule name OR rule_key."\n    },\n    "limit": {\n      "type": "integer",\n      "minimum": 1,\n      "maximum": 500,\n      "description": "Max rows returned (default 100)."\n    }\n  }\n}',
  },
  {
    name: 'get_edge_summary',
    source: 'internal/manager/biz/aiops/tools/get_edge_summary.go',
    needs: 'always',
    description:
      "Return a one-shot snapshot for an edge: registration metadata, current host load (cpu/mem/load), and recent incidents in the last 24h (any status, severity >= warning). Use this whenever the question is about a single named host's overall state.",
    schema:
      '{\n  "type": "object",\n  "properties": {\n    "device_id": {\n      "type": "integer",\n      "description": "Numeric device id (preferred). Matches the @-mention chip id and Prom device_id label."\n    },\n    "device_name": {\n      "type": "string",\n      "description": "Device name / hostname. Used when device_id is unknown."\n    },\n    "edge_id": {\n      "type": "integer",\n      "description": "Legacy alias for device_id — accepted for back-compat."\n    },\n    "edge_name": {\n      "type": "string",\n      "description": "Legacy alias for device_name — accepted for back-compat."\n    }\n  }\n}',
  },
  {
    name: 'correlate_incident',
    source: 'internal/manager/biz/aiops/tools/correlate_incident.go',
    needs: 'prom',
    description:
      'Pull all signals around an incident: the metric series that fired the rule, error logs from the same edge in the same time window, slow/error traces, and recent edge state changes. Returns one bundled JSON the LLM can reason over without further tool calls.',
    schema:
      '{\n  "type": "object",\n  "properties": {\n    "incident_id": {\n      "type": "integer",\n      "minimum": 1,\n      "description": "Primary key of the incident in alert_incidents."\n    },\n    "window_minutes": {\n      "type": "integer",\n      "minimum": 1,\n      "maximum": 240,\n      "description": "Total window centered on incident.first_fired_at (default 30, max 240)."\n    }\n  },\n  "required": ["incident_id"]\n}',
  },
  {
    name: 'list_database_sources',
    source: 'internal/manager/biz/aiops/tools/analyze_database_status.go',
    needs: 'always',
    description:
      "List configured database metrics sources without querying Prometheus. Use this only for configured-source lists, source counts, generic database inventory questions like 'how many databases do I have', where a database source is located, and simple device/edge/plugin/source relationships when the user asks about configuration rather than current database state or collected database objects. Not for health, performance, or metric coverage analysis; use analyze_database_status for those.",
    schema:
      '{\n  "type": "object",\n  "properties": {\n    "device_ids": {\n      "type": "array",\n      "items": {"type": "integer"},\n      "minItems": 1,\n      "maxItems": 64,\n      "description": "Optional device ids to list. Omit to list discovered database metric sources across all devices."\n    },\n    "db_types": {\n      "type": "array",\n      "items": {"type": "string", "enum": ["mysql", "postgresql", "postgres", "pg", "redis", "mongodb", "mongo"]},\n      "description": "Optional database type filter."\n    },\n    "source_ids": {\n      "type": "array",\n      "items": {"type": "string"},\n      "description": "Optional databasemetrics/custommetrics source ids to list."\n    },\n    "include_custommetrics": {\n      "type": "boolean",\n      "description": "Include custommetrics targets with resource.category=database and resource.type set to mysql/postgresql/redis/mongodb. Default true."\n    },\n    "include_disabled": {\n      "type": "boolean",\n      "description": "Include disabled plugin rows or disabled sources. Default false."\n    }\n  }\n}',
  },
  {
    name: 'analyze_database_status',
    source: 'internal/manager/biz/aiops/tools/analyze_database_status.go',
    needs: 'prom',
    description:
      'Analyze database health and performance from ongrid database metrics sources. Use this as the first tool for any MySQL, PostgreSQL, Redis, or MongoDB question that exporter metrics can cover, before raw query_promql, query_knowledge, or AgentTool. This includes health, performance, logical database/schema/table/collection/key counts from metrics, cluster/replication, advanced/optional exporter collectors, and metric coverage. For database alert-rule creation, list_metric_catalog must discover the current metric names first; use this afterwards only if source, device, or capability context is still needed before drafting. It can answer typed object-inventory questions such as how many MySQL schemas, PostgreSQL databases/tables, Redis logical DBs/keys, or MongoDB databases/collections exist from collected exporter metrics; if object inventory metrics are not collected, the response says which capability is missing. The response includes discovered metric names, unmapped metric names, and a capability matrix; unavailable capabilities mean the exporter has not collected the needed metrics.',
    schema:
      '{\n  "type": "object",\n  "properties": {\n    "device_ids": {\n      "type": "array",\n      "items": {"type": "integer"},\n      "minItems": 1,\n      "maxItems": 16,\n      "description": "Optional device ids to analyze. Omit to analyze discovered database metric sources across all devices."\n    },\n    "db_types": {\n      "type": "array",\n      "items": {"type": "string", "enum": ["mysql", "postgresql", "postgres", "pg", "redis", "mongodb", "mongo"]},\n      "description": "Optional database type filter."\n    },\n    "source_ids": {\n      "type": "array",\n      "items": {"type": "string"},\n      "description": "Optional databasemetrics/custommetrics source ids to analyze."\n    },\n    "lookback_seconds": {\n      "type": "integer",\n      "minimum": 300,\n      "maximum": 86400,\n      "description": "Analysis window in seconds. Default 3600."\n    },\n    "include_custommetrics": {\n      "type": "boolean",\n      "description": "Include custommetrics targets with resource.category=database and resource.type set to mysql/postgresql/redis/mongodb. Default true."\n    },\n    "include_disabled": {\n      "type": "boolean",\n      "description": "Include disabled plugin rows or disabled sources. Default false."\n    }\n  }\n}',
  },
  {
    name: 'query_k8s_snapshot',
    source: 'internal/manager/biz/aiops/tools/query_k8s_snapshot.go',
    needs: 'always',
    description:
      "Query the manager's Kubernetes DB snapshot for cluster, node, workload, pod, and event inventory. Use this for counts, lists, status summaries, namespace fault triage, and K8s object correlation; it does not call the live Kubernetes API.",
    schema:
      '{\n  "type": "object",\n  "properties": {\n    "resource": {\n      "type": "string",\n      "enum": ["summary", "clusters", "nodes", "workloads", "pods", "events"],\n      "description": "Snapshot resource to query. Use summary for per-cluster counts. Default summary."\n    },\n    "cluster_id": {\n      "type": "integer",\n      "minimum": 1,\n      "description": "Optional cluster id. Omit to aggregate across registered clusters."\n    },\n    "cluster_name": {\n      "type": "string",\n      "description": "Optional substring filter for cluster name when cluster_id is omitted."\n    },\n    "cluster_status": {\n      "type": "string",\n      "enum": ["online", "offline", "degraded"],\n      "description": "Optional cluster status filter."\n    },\n    "cluster_mode": {\n      "type": "string",\n      "enum": ["full-node"],\n      "description": "Optional cluster mode filter."\n    },\n    "namespace": {\n      "type": "string",\n      "description": "Optional namespace filter for workloads, pods, and events."\n    },\n    "kind": {\n      "type": "string",\n      "description": "Optional workload kind filter, for example Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob."\n    },\n    "node_name": {\n      "type": "string",\n      "description": "Optional node name filter for pods."\n    },\n    "phase": {\n      "type": "string",\n      "description": "Optional pod phase filter, for example Running, Pending, Failed, Succeeded."\n    },\n    "event_type": {\n      "type": "string",\n      "enum": ["Normal", "Warning"],\n      "description": "Optional event type filter."\n    },\n    "reason": {\n      "type": "string",\n      "description": "Optional reason filter. For pods, use values such as CrashLoopBackOff or OOMKilled. For events, use values such as BackOff or FailedScheduling."\n    },\n    "involved_kind": {\n      "type": "string",\n      "description": "Optional involved object kind for events, for example Pod or Deployment."\n    },\n    "involved_name": {\n      "type": "string",\n      "description": "Optional involved object name for events."\n    },\n    "limit": {\n      "type": "integer",\n      "minimum": 1,\n      "maximum": 200,\n      "description": "Maximum sample rows to return. Total counts are exact DB counts. Default 50."\n    },\n    "offset": {\n      "type": "integer",\n      "minimum": 0,\n      "description": "Offset for sample rows. Most useful when cluster_id is set."\n    }\n  }\n}',
  },
  {
    name: 'describe_k8s_resource',
    source: 'internal/manager/biz/aiops/tools/describe_k8s_resource.go',
    needs: 'always',
    description:
      'Read one Kubernetes resource live through the cluster controller edge. Use only when the user asks for describe/latest/live state or when DB snapshot freshness is not enough.',
    schema:
      '{\n  "type": "object",\n  "required": ["cluster_id", "kind", "name"],\n  "properties": {\n    "cluster_id": {\n      "type": "integer",\n      "minimum": 1,\n      "description": "Kubernetes cluster id in ongrid."\n    },\n    "kind": {\n      "type": "string",\n      "description": "Resource kind: Pod, Node, Namespace, Service, Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob, or Event."\n    },\n    "api_version": {\n      "type": "string",\n      "description": "Optional apiVersion override. Defaults from kind, for example v1, apps/v1, batch/v1."\n    },\n    "namespace": {\n      "type": "string",\n      "description": "Namespace for namespaced resources. Required for Pod/Service/Deployment/StatefulSet/DaemonSet/ReplicaSet/Job/CronJob/Event."\n    },\n    "name": {\n      "type": "string",\n      "description": "Resource name."\n    },\n    "include_events": {\n      "type": "boolean",\n      "description": "Whether to include related Events. Default true."\n    },\n    "events_limit": {\n      "type": "integer",\n      "minimum": 1,\n      "maximum": 100,\n      "description": "Max related Events to return. Default 20."\n    }\n  }\n}',
  },
  {
    name: 'query_k8s_logs',
    source: 'internal/manager/biz/aiops/tools/query_k8s_logs.go',
    needs: 'always',
    description:
      "Read a bounded slice of one Kubernetes Pod's logs through the cluster controller edge. Use as a small troubleshooting fallback when Loki or the log gateway has no data.",
    schema:
      '{\n  "type": "object",\n  "required": ["cluster_id", "namespace", "pod"],\n  "properties": {\n    "cluster_id": {\n      "type": "integer",\n      "minimum": 1,\n      "description": "Kubernetes cluster id in ongrid."\n    },\n    "namespace": {\n      "type": "string",\n      "description": "Pod namespace."\n    },\n    "pod": {\n      "type": "string",\n      "description": "Pod name."\n    },\n    "container": {\n      "type": "string",\n      "description": "Optional container name for multi-container Pods."\n    },\n    "previous": {\n      "type": "boolean",\n      "description": "Read the previous terminated container logs. Useful for CrashLoopBackOff."\n    },\n    "since_seconds": {\n      "type": "integer",\n      "minimum": 1,\n      "maximum": 86400,\n      "description": "Only return logs newer than this many seconds. Default 3600, max 86400."\n    },\n    "tail_lines": {\n      "type": "integer",\n      "minimum": 1,\n      "maximum": 500,\n      "description": "Max log lines to return. Default 100, max 500."\n    },\n    "limit_bytes": {\n      "type": "integer",\n      "minimum": 1024,\n      "maximum": 65536,\n      "description": "Max bytes to return. Default 16384, max 65536."\n    },\n    "timestamps": {\n      "type": "boolean",\n      "description": "Ask Kubernetes to prefix log lines with timestamps. Default true."\n    }\n  }\n}',
  },
  {
    name: 'execute_k8s_action',
    source: 'internal/manager/biz/aiops/tools/execute_k8s_action.go',
    needs: 'always',
    description:
      'Execute a small, audited Kubernetes write through the cluster controller edge. MUTATING — real writes require a successful dry-run preflight and kernel-specific approval before dispatch; the default legacy kernel always asks for human confirmation.',
    schema:
      '{\n  "type": "object",\n  "required": ["cluster_id", "action", "name"],\n  "properties": {\n    "cluster_id": {\n      "type": "integer",\n      "minimum": 1,\n      "description": "Kubernetes cluster id in ongrid."\n    },\n    "action": {\n      "type": "string",\n      "enum": ["rollout_restart", "scale", "delete_pod", "evict_pod", "cordon", "uncordon", "drain"],\n      "description": "Kubernetes write action to execute."\n    },\n    "kind": {\n      "type": "string",\n      "description": "Resource kind. Required for rollout_restart and scale. Defaults to Pod for delete_pod/evict_pod and Node for cordon/uncordon/drain."\n    },\n    "api_version": {\n      "type": "string",\n      "description": "Optional apiVersion override. Defaults from kind, for example apps/v1 or v1."\n    },\n    "namespace": {\n      "type": "string",\n      "description": "Namespace for namespaced resources. Required for Deployment/StatefulSet/DaemonSet/Pod."\n    },\n    "name": {\n      "type": "string",\n      "description": "Resource name."\n    },\n    "replicas": {\n      "type": "integer",\n      "minimum": 0,\n      "maximum": 10000,\n      "description": "Desired replicas. Required only when action=scale."\n    },\n    "expected_resource_version": {\n      "type": "string",\n      "description": "Optional optimistic-lock resourceVersion observed by a prior describe/preflight. If set and stale, the controller refuses to mutate."\n    },\n    "dry_run": {\n      "type": "boolean",\n      "description": "Set true first. A successful Kubernetes dryRun=All returns a short-lived preflight_token and expected_resource_version required by the real write."\n    },\n    "preflight_token": {\n      "type": "string",\n      "description": "One-time token returned by a matching dry-run. Required when dry_run is false."\n    },\n    "grace_period_seconds": {\n      "type": "integer",\n      "minimum": 0,\n      "maximum": 3600,\n      "description": "Optional Kubernetes DeleteOptions gracePeriodSeconds for delete_pod, evict_pod, or drain."\n    },\n    "drain_timeout_seconds": {\n      "type": "integer",\n      "minimum": 1,\n      "maximum": 600,\n      "description": "Drain-only timeout while retrying PDB-blocked evictions. Defaults to 120."\n    },\n    "drain_retry_seconds": {\n      "type": "integer",\n      "minimum": 1,\n      "maximum": 30,\n      "description": "Drain-only retry interval for PDB 429 eviction responses. Defaults to 2."\n    },\n    "ignore_daemonsets": {\n      "type": "boolean",\n      "default": true,\n      "description": "Drain-only. When true, DaemonSet Pods are skipped; when false, the controller refuses drain if DaemonSet Pods are present."\n    },\n    "delete_emptydir_data": {\n      "type": "boolean",\n      "description": "Drain-only. Must be true before evicting/deleting Pods that use emptyDir volumes."\n    },\n    "force": {\n      "type": "boolean",\n      "description": "Drain-only. Allows unmanaged Pods without a controller owner to be drained."\n    },\n    "disable_eviction": {\n      "type": "boolean",\n      "description": "Drain-only. Deletes Pods directly instead of using eviction, bypassing PDB protection. Use only with explicit operator approval."\n    },\n    "reason": {\n      "type": "string",\n      "description": "Why the action is requested. Included in review/audit context."\n    }\n  }\n}',
  },
]

/** One entry of a builtin skill's ParamSchema (internal/skill/types.go Param). */
export interface SkillParam {
  name: string
  type: 'string' | 'int' | 'float' | 'bool' | 'duration' | 'enum' | 'array'
  required?: boolean
  /** Param.Default (nil when absent). */
  default?: string | number | boolean
  desc: string
  enum?: string[]
}

export interface BuiltinSkill {
  key: string
  source: string
  /** EffectiveScope: host unless the metadata says manager. */
  scope: 'host' | 'manager'
  description: string
  resultPreview: string
  params: SkillParam[]
}

/** The safe builtin skills, in no order (the registry is a map). */
export const BUILTIN_SAFE_SKILLS: readonly BuiltinSkill[] = [
  {
    key: 'get_packet_capture',
    source: 'internal/skill/builtin/capture_pcap.go',
    scope: 'host',
    description:
      'Query the status, stop reason, file size, and error details for a PCAP capture task on a Linux Edge.',
    resultPreview: '{id, state, result, error?}',
    params: [{ name: 'capture_id', type: 'string', required: true, desc: 'Packet capture task id.' }],
  },
  {
    key: 'host_netns_inspect',
    source: 'internal/skill/builtin/host_netns_inspect.go',
    scope: 'host',
    description:
      '列出 /var/run/netns 下的所有 network namespace 并对每个 namespace 报告 IP 地址 / 路由 / 接口状态。填补 host_bash 不支持 `ip -n <ns>` 的盲区。仅 read-only。',
    resultPreview: '{namespaces:[{name, addrs:[...], routes:[...], links?:[...], error?}]}',
    params: [
      {
        name: 'namespace',
        type: 'string',
        desc: '可选：只查这一个 namespace 名（精确匹配）。留空 = 列全部。仅允许 [a-zA-Z0-9_.-]，最长 64 字符。',
      },
      { name: 'include_routes', type: 'bool', default: true, desc: '是否带回每个 ns 的路由表。默认 true。' },
      {
        name: 'include_links',
        type: 'bool',
        default: false,
        desc: '是否带回每个 ns 的 link 列表（含 MAC / state）。默认 false（多 ns 时数据量大）。',
      },
    ],
  },
  {
    key: 'host_probe_dns',
    source: 'internal/skill/builtin/probe_dns.go',
    scope: 'host',
    description: 'DNS 解析目标 host，返回 A/AAAA 记录',
    resultPreview: '{addrs, latency_ms, error?}',
    params: [
      { name: 'host', type: 'string', required: true, desc: '要解析的主机名，例如 example.com' },
      { name: 'timeout_ms', type: 'int', default: 3000, desc: '解析超时（毫秒），默认 3000' },
    ],
  },
  {
    key: 'host_probe_http',
    source: 'internal/skill/builtin/probe_http.go',
    scope: 'host',
    description: '对 URL 发起 HEAD/GET 请求，返回状态码 + 延迟 + 内容长度',
    resultPreview: '{status_code, latency_ms, content_length, error?}',
    params: [
      { name: 'url', type: 'string', required: true, desc: '完整 URL，例如 https://example.com/health' },
      { name: 'method', type: 'enum', default: 'HEAD', enum: ['GET', 'HEAD'], desc: 'HTTP 方法，默认 HEAD' },
      { name: 'timeout_ms', type: 'int', default: 5000, desc: '请求超时（毫秒），默认 5000' },
    ],
  },
  {
    key: 'host_probe_ping',
    source: 'internal/skill/builtin/probe_ping.go',
    scope: 'host',
    description: '对目标 host 发起短时 ICMP ping，返回退出码、耗时和原始输出',
    resultPreview: '{ok, exit_code, duration_ms, stdout, stderr}',
    params: [
      { name: 'host', type: 'string', required: true, desc: '目标主机名或 IP，例如 8.8.8.8 或 example.com' },
      { name: 'count', type: 'int', default: 4, desc: '发送包数，默认 4，最大 10' },
      { name: 'timeout_ms', type: 'int', default: 3000, desc: '单包等待超时（毫秒），默认 3000' },
    ],
  },
  {
    key: 'host_probe_tcp',
    source: 'internal/skill/builtin/probe_tcp.go',
    scope: 'host',
    description: '对目标 host:port 发起 TCP 连接，返回连通状态 + 延迟',
    resultPreview: '{ok, latency_ms, error?}',
    params: [
      {
        name: 'target',
        type: 'string',
        required: true,
        desc: '目标地址，host:port 形式，例如 google.com:443',
      },
      { name: 'timeout_ms', type: 'int', default: 3000, desc: '拨号超时（毫秒），默认 3000' },
    ],
  },
  {
    key: 'host_read_journal',
    source: 'internal/skill/builtin/read_journal.go',
    scope: 'host',
    description: '读 systemd-journald 日志（journalctl 包装），仅 Linux 支持',
    resultPreview: '{lines, total_lines, command, error?}',
    params: [
      { name: 'unit', type: 'string', desc: 'systemd unit 名（可选），例如 ongrid-edge' },
      {
        name: 'since',
        type: 'duration',
        default: '10m',
        desc: '回溯时长（journalctl --since 形式），默认 10m',
      },
      { name: 'lines', type: 'int', default: 200, desc: '最大行数，默认 200' },
    ],
  },
  {
    key: 'host_tail_file',
    source: 'internal/skill/builtin/tail_file.go',
    scope: 'host',
    description: '读取文件最后 N 行（类似 tail -n）',
    resultPreview: '{lines, total_lines_returned, file_size, truncated, error?}',
    params: [
      { name: 'path', type: 'string', required: true, desc: '文件绝对路径，必须以 / 开头且不含 ..' },
      { name: 'lines', type: 'int', default: 100, desc: '返回行数，默认 100' },
      { name: 'max_bytes', type: 'int', default: 1048576, desc: '最多读取的尾部字节数，默认 1MiB' },
    ],
  },
  {
    key: 'web_search',
    source: 'internal/skill/builtin/web_search.go',
    scope: 'manager',
    description:
      'Search the public web and return top results with title + url + snippet. Default provider is SearXNG (self-hosted, zero-key); operators may switch to Tavily or Brave Search via Settings → Integrations. When the provider supports it (Tavily) an auto-generated `answer` field is also returned.',
    resultPreview: '{provider, results:[{title,url,snippet,published_date}], answer?, skipped_reason?}',
    params: [
      { name: 'query', type: 'string', required: true, desc: '搜索关键词（自然语言或精确字符串均可）' },
      { name: 'max_results', type: 'int', default: 5, desc: '返回结果上限，1~10' },
      {
        name: 'include_domains',
        type: 'string',
        desc: '限定搜索域，逗号分隔，留空 = 不限（仅 Tavily 支持，其他 provider 忽略）',
      },
      { name: 'exclude_domains', type: 'string', desc: '排除域，逗号分隔（仅 Tavily 支持）' },
      {
        name: 'provider',
        type: 'enum',
        default: '',
        enum: ['', 'searxng', 'tavily', 'brave'],
        desc: '强制使用哪个 provider；留空 = 走系统设置选择',
      },
    ],
  },
]
