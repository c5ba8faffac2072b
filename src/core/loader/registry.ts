import type { GoString } from '../go/gostring.js'
import { quote } from '../go/strconv/quote.js'

/** The loader's line when a manifest parses but its skill does not build (loader.go). */
export function buildFailedText(name: GoString, path: GoString, err: GoString): GoString {
  return `skill loader: build ${name} (${path}): ${err}`
}

/** The registry's refusal of a taken key, as the loader logs it after `skill loader: `. */
export function alreadyRegisteredText(name: GoString, path: GoString): GoString {
  return `skill ${quote(name)} already registered, skipping ${path}`
}

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
