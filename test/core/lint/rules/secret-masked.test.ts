import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { fromText } from '../../../../src/core/go/gostring.js'
import type { Context } from '../../../../src/core/lint/context.js'
import { check } from '../../../../src/core/lint/engine.js'
import secretHighEntropy from '../../../../src/core/lint/rules/secret-high-entropy.js'
import secretPrivateKey from '../../../../src/core/lint/rules/secret-private-key.js'
import secretToken from '../../../../src/core/lint/rules/secret-token.js'
import secretUrlPassword from '../../../../src/core/lint/rules/secret-url-password.js'
import type { Rule } from '../../../../src/core/lint/types.js'
import { textOf, toDiagnostic } from '../../../../src/lsp/diagnostics.js'
import { LINT_FORMATS, renderLint } from '../../../../src/ui/lint/format.js'
import type { LintOutput } from '../../../../src/ui/lint/model.js'
import { makeTree, tempRoot } from '../../../helpers/tree.js'
import { pack } from './fixtures.js'
import { ALL, AWS, GH, GOOGLE, KEY_PEM, OPENAI, RANDOM, SLACK, URL_PW } from './secret-fixtures.js'

/** Every format shows where a secret is and what kind, never the value. */
describe('secret/ findings: the value masked in every output', () => {
  let R = ''
  let cleanup = () => {}
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    makeTree(R, {
      'skills/a/skill.json': pack({ env: { GH, API_KEY: RANDOM } }),
      'skills/a/run.sh': {
        exec: `#!/bin/sh\nexport AWS_ACCESS_KEY_ID=${AWS}\ncurl -d "t=${SLACK}" https://bob:${URL_PW}@x.io/\n`,
      },
      'skills/a/keys.py': `GOOGLE = "${GOOGLE}"\nOPENAI = "${OPENAI}"\n`,
      'skills/a/id_rsa': KEY_PEM,
    })
  })
  after(() => cleanup())

  test('text (stylish), json, sarif, github, junit and the language server', async () => {
    const rules = [secretPrivateKey, secretToken, secretUrlPassword, secretHighEntropy] as Rule<Context>[]
    const result = await check({ paths: [fromText(`${R}/skills`)], rules, set: 'all' })
    const findings = result.files.flatMap((f) => f.findings)
    assert.deepEqual(findings.map((f) => f.ruleId).sort(), [
      'secret/high-entropy',
      'secret/private-key',
      'secret/token',
      'secret/token',
      'secret/token',
      'secret/token',
      'secret/token',
      'secret/url-password',
    ])
    const output: LintOutput = {
      command: 'lint',
      files: result.files,
      rules: result.rules,
      ignored: 0,
      cwd: R,
      repo: R,
      failSeverity: 'error',
    }
    const texts: [string, string][] = []
    for (const format of LINT_FORMATS) texts.push([format, await renderLint(format, output)])
    texts.push(['lsp', JSON.stringify(findings.map((f) => toDiagnostic(f, textOf(f.file))))])
    for (const [format, text] of texts) {
      assert.match(text, /masked/, format)
      for (const value of ALL) assert.ok(!text.includes(value), `${format} shows ${value.slice(0, 6)}…`)
    }
  })
})
