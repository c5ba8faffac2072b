/** Where docs/rules.md is published; each rule has an anchor there (see rules-doc.ts). */
export const RULES_DOC_URL = 'https://github.com/ongridio/ongrid-skill/blob/main/docs/rules.md'

/** The anchor of a rule in docs/rules.md (an explicit `<a id>` before its heading). */
export function ruleAnchor(id: string): string {
  return id.replace(/\//g, '-')
}
