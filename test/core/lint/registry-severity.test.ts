import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { RULES } from '../../../src/core/lint/registry.js'
import type { Severity } from '../../../src/core/lint/types.js'

// A rule's default severity decides exit codes in users' CI (errors fail `validate` and `lint`,
// warnings only with --fail-severity warn or --max-warnings): changing one is a decision, made
// here on purpose, not a snapshot (docs/rules.md, SARIF) accepted in passing. A new rule gets
// its line here (`npm run new-rule` writes it).
const DEFAULT_SEVERITY: [string, Severity][] = [
  ['manager/parse', 'error'],
  ['manager/build', 'error'],
  ['manager/builtin-name', 'error'],
  ['manager/duplicate-name', 'error'],
  ['manager/walk', 'error'],
  ['manager/symlink-not-walked', 'warn'],
  ['manager/file-name', 'warn'],
  ['input/skipped', 'error'],
  ['run/entry-stat', 'error'],
  ['run/entry-directory', 'error'],
  ['run/not-executable', 'error'],
  ['run/exec-format', 'error'],
  ['run/interpreter-missing', 'warn'],
  ['run/env-lookup', 'warn'],
  ['schema/not-object', 'error'],
  ['schema/number-range', 'error'],
  ['schema/invalid', 'error'],
  ['schema/default-invalid', 'error'],
  ['schema/unknown-draft', 'warn'],
  ['schema/too-deep', 'info'],
  ['env/invalid-name', 'error'],
  ['native/read', 'error'],
  ['native/frontmatter', 'error'],
  ['native/yaml', 'error'],
  ['native/yaml-type', 'error'],
  ['native/missing-name', 'error'],
  ['native/missing-description', 'error'],
  ['native/name-normalized', 'warn'],
  ['native/activation-conflict', 'warn'],
  ['native/not-loaded', 'error'],
  ['tests/shape', 'error'],
  ['tests/unknown-key', 'error'],
  ['tests/args-schema', 'warn'],
  ['practice/bom', 'error'],
  ['practice/class-unset', 'warn'],
  ['practice/not-offered-to-llm', 'info'],
  ['practice/dangerous-class', 'warn'],
  ['practice/description-length', 'warn'],
  ['practice/timeout-unset', 'warn'],
  ['practice/timeout-ignored', 'warn'],
  ['practice/timeout-too-long', 'warn'],
  ['practice/timeout-llm-deadline', 'info'],
  ['practice/near-miss-key', 'warn'],
  ['practice/case-insensitive-key', 'warn'],
  ['practice/unknown-key', 'info'],
  ['practice/duplicate-key', 'warn'],
  ['practice/agent-tool-name', 'warn'],
  ['practice/absolute-entry', 'info'],
  ['practice/tool-size', 'warn'],
  ['practice/confusable-tool', 'warn'],
  ['schema/missing', 'info'],
  ['schema/top-type', 'error'],
  ['schema/property-description', 'warn'],
  ['schema/required-unknown', 'warn'],
  ['schema/additional-properties', 'warn'],
  ['schema/duplicate-key', 'warn'],
  ['schema/redos-pattern', 'warn'],
  ['env/whitespace', 'warn'],
  ['env/empty', 'info'],
  ['env/duplicate', 'info'],
  ['env/dangerous-name', 'warn'],
  ['native/no-frontmatter', 'warn'],
  ['native/tool-class', 'warn'],
  ['native/activation-mode', 'warn'],
  ['native/keywords-missing', 'warn'],
  ['entry/shellcheck', 'info'],
  ['entry/eval-input', 'warn'],
  ['entry/shell-string', 'warn'],
  ['entry/pipe-to-shell', 'warn'],
  ['entry/expansion-as-command', 'warn'],
  ['secret/private-key', 'error'],
  ['secret/token', 'error'],
  ['secret/url-password', 'error'],
  ['secret/high-entropy', 'warn'],
  ['text/hidden-char', 'error'],
  ['text/model-instruction', 'warn'],
]

describe('default severities', () => {
  test('each rule has the default severity decided for it', () => {
    const have = new Map(RULES.map((r) => [r.id, r.severity]))
    for (const [id, severity] of DEFAULT_SEVERITY) assert.equal(have.get(id), severity, id)
  })

  test('each rule has its line here', () => {
    const listed = new Set(DEFAULT_SEVERITY.map(([id]) => id))
    assert.deepEqual(
      RULES.map((r) => r.id).filter((id) => !listed.has(id)),
      [],
    )
  })
})
