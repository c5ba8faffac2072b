import { pathToFileURL } from 'node:url'
import { toText } from '../../core/go/gostring.js'
import type { Finding } from '../../core/lint/types.js'
import { counts, displayPath, isBaselined, type LintOutput, messageWithHint } from './model.js'
import { RULES_DOC_URL, ruleAnchor } from './rule-link.js'

const LEVEL = { error: 'error', warn: 'warning', info: 'note' } as const

/** A relative path as a URI reference (each segment percent-encoded). */
function uriOf(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/')
}

/**
 * SARIF 2.1.0: one run; tool.driver.rules lists the rules of the run with stable ids, short
 * descriptions, default levels and helpUri; results carry ruleId/ruleIndex, level, the
 * message, and a repository-relative artifactLocation (uriBaseId %SRCROOT% = the repository root, see repoRoot) with
 * startLine/startColumn (columns count Unicode code points: run.columnKind).
 */
export function sarif(o: LintOutput, version: string): string {
  const index = new Map(o.rules.map((r, i) => [r.id, i]))
  const location = (file: string) => ({ uri: uriOf(displayPath(file, o.repo)), uriBaseId: '%SRCROOT%' })
  /**
   * SARIF fixes (§3.55): the text edits as replacements of byte regions; a mode fix has no SARIF
   * form and is left out. The fix first, then the suggestions.
   */
  const fixes = (x: Finding, file: string) =>
    [
      ...(x.fix ? [{ description: `Fix: ${x.message}`, fix: x.fix }] : []),
      ...(x.suggestions ?? []).map((s) => ({ description: s.message, fix: s.fix })),
    ]
      .filter((s) => s.fix.edits.length > 0)
      .map((s) => ({
        description: { text: s.description },
        artifactChanges: [
          {
            artifactLocation: location(s.fix.file ?? file),
            replacements: s.fix.edits.map((e) => ({
              deletedRegion: { byteOffset: e.range[0], byteLength: e.range[1] - e.range[0] },
              insertedContent: { text: toText(e.text) },
            })),
          },
        ],
      }))
  const results = o.files.flatMap((f) =>
    f.findings.map((x) => {
      const fx = fixes(x, f.file)
      return {
        ruleId: x.ruleId,
        ruleIndex: index.get(x.ruleId) ?? -1,
        level: LEVEL[x.severity],
        message: { text: messageWithHint(x) },
        locations: [
          {
            physicalLocation: {
              artifactLocation: location(f.file),
              region: { startLine: x.line, startColumn: x.column },
            },
          },
        ],
        ...(fx.length > 0 ? { fixes: fx } : {}),
        ...(o.baseline === undefined
          ? {}
          : isBaselined(o, x)
            ? {
                baselineState: 'unchanged',
                suppressions: [
                  { kind: 'external', status: 'accepted', justification: `recorded in ${o.baseline.path}` },
                ],
              }
            : { baselineState: 'new' }),
      }
    }),
  )
  const c = counts(o)
  const doc = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'ongrid-skill',
            version,
            informationUri: RULES_DOC_URL,
            rules: o.rules.map((r) => ({
              id: r.id,
              name: r.id,
              shortDescription: { text: r.docs },
              helpUri: r.helpUri ?? `${RULES_DOC_URL}#${ruleAnchor(r.id)}`,
              defaultConfiguration: { level: LEVEL[r.severity] },
              properties: { category: r.category, appliesTo: r.kind },
            })),
          },
        },
        originalUriBaseIds: {
          '%SRCROOT%': { uri: pathToFileURL(o.repo.endsWith('/') ? o.repo : `${o.repo}/`).href },
        },
        columnKind: 'unicodeCodePoints',
        results,
        ...(o.baseline
          ? { properties: { baseline: { path: o.baseline.path, baselined: c.baselined, fixed: c.fixed } } }
          : {}),
      },
    ],
  }
  return `${JSON.stringify(doc, null, 2)}\n`
}
