import type { GoString } from './go/gostring.js'

/**
 * Keys the manager registers before its loader runs (the builtin skills of
 * internal/skill/builtin), so a pack that takes one of these names is skipped
 * as "already registered".
 */
export const BUILTIN_SKILL_KEYS: readonly string[] = [
  'capture_pcap',
  'get_packet_capture',
  'host_netns_inspect',
  'host_probe_dns',
  'host_probe_http',
  'host_probe_ping',
  'host_probe_tcp',
  'host_read_journal',
  'host_tail_file',
  'host_restart_service',
  'web_search',
]

/** The process-wide skill registry, reduced to what the loader consults: which keys are taken. */
export class Registry {
  private readonly keys = new Set<GoString>()
  readonly builtins: ReadonlySet<GoString>

  constructor(builtins: readonly GoString[] = BUILTIN_SKILL_KEYS) {
    for (const k of builtins) this.keys.add(k)
    this.builtins = new Set(builtins)
  }

  has(key: GoString): boolean {
    return this.keys.has(key)
  }

  add(key: GoString): void {
    this.keys.add(key)
  }
}
