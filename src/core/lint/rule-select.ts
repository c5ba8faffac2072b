/**
 * Rule selectors, in `--rule SELECTOR=SETTING` and a config's `rules:` keys: a rule id
 * (`practice/bom`), a prefix of whole segments (`practice`, `practice/`: every rule under it), or a
 * glob (`practice/*`, `*`, `schema/*-key`; `*` is any characters but `/`, `?` one). Entries apply in
 * the order written: a later one wins over an earlier one for the rules both select.
 */
import { globToRegExp } from '../glob.js'

/** The ids a selector selects, in `ids`' order; empty when none. */
export function selectRules(selector: string, ids: Iterable<string>): string[] {
  const all = [...ids]
  if (all.includes(selector)) return [selector]
  const s = selector.trim()
  if (s === '' || s.startsWith('/') || s.startsWith('./')) return []
  const re = globToRegExp(s)
  return all.filter((id) => re.test(id))
}
