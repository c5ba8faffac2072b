import { toText } from '../core/go/gostring.js'
import type { SubprocessSkill } from '../core/loader/build.js'
import type { LoaderEvent, LoaderEventKind } from '../core/loader/loader.js'

/** Each kind's label, one and more than one (`1 parse error`, `2 parse errors`). */
const SKIP_LABELS: [LoaderEventKind, string, string][] = [
  ['parse-error', 'parse error', 'parse errors'],
  ['build-error', 'build error', 'build errors'],
  ['duplicate', 'duplicate name', 'duplicate names'],
  ['walk-error', 'walk error', 'walk errors'],
  ['skip-non-absolute', 'non-absolute dir', 'non-absolute dirs'],
  ['dir-not-present', 'missing dir', 'missing dirs'],
  ['stat-error', 'unreadable dir', 'unreadable dirs'],
  ['not-a-directory', 'not a directory', 'not directories'],
]

/** The one-line human summary load-dirs prints on stderr. */
export function loadSummary(registered: number, counts: Map<LoaderEventKind, number>): string {
  const parts = SKIP_LABELS.filter(([k]) => (counts.get(k) ?? 0) > 0).map(
    ([k, one, more]) => `${counts.get(k)} ${counts.get(k) === 1 ? one : more}`,
  )
  const skipped = SKIP_LABELS.reduce((n, [k]) => n + (counts.get(k) ?? 0), 0)
  const s = `${registered} registered, ${skipped} skipped`
  return parts.length > 0 ? `${s} (${parts.join(', ')})` : s
}

/** A registered skill as load-dirs --json reports it. */
export function skillJson(s: SubprocessSkill) {
  return {
    name: toText(s.key),
    manifest: toText(s.manifestPath),
    entry: toText(s.entry),
    class: s.class,
    category: toText(s.category),
    timeout_ms: Number(s.timeoutNs / 1_000_000n),
    env_allow: s.envAllow === null ? null : s.envAllow.map(toText),
    schema_raw: s.schema === null ? null : toText(s.schema),
  }
}

/**
 * One of the loader's lines as the --json documents give it (`loader_lines` in load-dirs and
 * mcp): its kind, the dir or manifest path, the skill's name when decoded, the manager's line.
 */
export function loaderLineJson(e: LoaderEvent) {
  return {
    kind: e.kind,
    path: toText(e.path),
    name: e.name === null ? null : toText(e.name),
    message: toText(e.message),
  }
}
