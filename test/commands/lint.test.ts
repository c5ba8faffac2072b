import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { RULES } from '../../src/core/lint/registry.js'
import { assertJunitValid, haveXmllint } from '../helpers/junit.js'
import { cli, fixModes, golden, PACKS, REPO } from '../helpers/lint-fixtures.js'
import { ECHO, makeTree, manifest, tempRoot } from '../helpers/tree.js'

const FIX = 'test/fixtures/lint/packs'

describe('ongrid-skill lint', () => {
  let R = ''
  let cleanup = () => {}
  before(() => {
    fixModes()
    ;({ root: R, cleanup } = tempRoot())
    makeTree(R, {
      // warnings only: class and timeout unset
      'w/skill.json': manifest({
        name: 'w',
        description: 'Reports the free space of a filesystem, in bytes.',
        schema: { type: 'object', properties: {}, additionalProperties: false },
      }),
      'w/run.sh': ECHO,
    })
  })
  after(() => cleanup())

  for (const format of ['stylish', 'json', 'sarif', 'github', 'junit']) {
    test(`--format ${format} over the fixture packs (golden)`, () => {
      const r = cli(['lint', FIX, '--format', format])
      assert.equal(r.code, 1)
      assert.equal(r.stderr, '')
      golden(
        `lint.${format}.${format === 'stylish' || format === 'github' ? 'txt' : format === 'junit' ? 'xml' : 'json'}`,
        r.stdout,
      )
    })
  }

  test('SARIF 2.1.0: the structure code-scanning tools require', () => {
    const doc = JSON.parse(cli(['lint', FIX, '--format', 'sarif']).stdout)
    assert.equal(doc.version, '2.1.0')
    assert.equal(doc.runs.length, 1)
    const run = doc.runs[0]
    assert.equal(run.tool.driver.name, 'ongrid-skill')
    const ids = run.tool.driver.rules.map((r: { id: string }) => r.id)
    assert.deepEqual(
      ids,
      RULES.map((r) => r.id),
    )
    for (const r of run.tool.driver.rules) {
      assert.ok(r.shortDescription.text.length > 0)
      assert.match(r.helpUri, /^https:\/\/.*docs\/rules\.md#[a-z0-9-]+$/)
      assert.ok(['error', 'warning', 'note'].includes(r.defaultConfiguration.level))
    }
    assert.ok(run.results.length > 0)
    for (const res of run.results) {
      assert.equal(run.tool.driver.rules[res.ruleIndex].id, res.ruleId)
      assert.ok(['error', 'warning', 'note'].includes(res.level))
      assert.ok(res.message.text.length > 0)
      const loc = res.locations[0].physicalLocation
      assert.match(
        loc.artifactLocation.uri,
        /^test\/fixtures\/lint\/packs\/[a-z_]+\/(skill\.json|SKILL\.md)$/,
      )
      assert.equal(loc.artifactLocation.uriBaseId, '%SRCROOT%')
      assert.ok(loc.region.startLine >= 1 && loc.region.startColumn >= 1)
    }
    assert.equal(run.originalUriBaseIds['%SRCROOT%'].uri, `file://${REPO}/`)
  })

  test('github and sarif paths are relative to the repository root, wherever the job runs', () => {
    const { root: G, cleanup: done } = tempRoot()
    try {
      makeTree(G, {
        '.git/HEAD': 'ref: refs/heads/main\n',
        'skills/p/skill.json': manifest({ name: 'p', class: 'nope' }),
        'skills/p/run.sh': ECHO,
        'ws/skills/p/skill.json': manifest({ name: 'p', class: 'nope' }),
        'ws/skills/p/run.sh': ECHO,
      })
      const env = { GITHUB_WORKSPACE: undefined }
      // working-directory: skills, under a git top level
      const gh = cli(['lint', 'p', '--format', 'github'], env, `${G}/skills`).stdout
      assert.match(gh, /^::error file=skills\/p\/skill\.json,line=/m)
      const doc = JSON.parse(cli(['lint', 'p', '--format', 'sarif'], env, `${G}/skills`).stdout)
      const loc = doc.runs[0].results[0].locations[0].physicalLocation.artifactLocation
      assert.deepEqual(loc, { uri: 'skills/p/skill.json', uriBaseId: '%SRCROOT%' })
      assert.equal(doc.runs[0].originalUriBaseIds['%SRCROOT%'].uri, `file://${G}/`)
      // GITHUB_WORKSPACE wins over the git top level
      const ws = cli(['lint', 'p', '--format', 'github'], { GITHUB_WORKSPACE: `${G}/ws` }, `${G}/ws/skills`)
      assert.match(ws.stdout, /^::error file=skills\/p\/skill\.json,line=/m)
      // stylish stays relative to the working dir
      assert.match(cli(['lint', 'p'], env, `${G}/skills`).stdout, /^p\/skill\.json$/m)
    } finally {
      done()
    }
  })

  test('github: workflow commands with escaped properties and data', () => {
    const out = cli(['lint', FIX, '--format', 'github']).stdout
    for (const line of out.trimEnd().split('\n')) {
      assert.match(line, /^::(error|warning|notice) file=[^,:]+,line=\d+,col=\d+,title=[a-z]+\/[a-z-]+::\S/)
    }
    assert.match(
      out,
      /^::error file=test\/fixtures\/lint\/packs\/bad_json\/skill\.json,line=5,col=1,title=manager\/parse::decode: invalid character '}' looking for beginning of object key string$/m,
    )
  })

  test('junit: one suite per file, failures at the fail severity only', () => {
    const xml = cli(['lint', FIX, '--format', 'junit']).stdout
    assert.match(xml, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites /)
    assert.equal((xml.match(/<testsuite /g) ?? []).length, 8)
    const errors = JSON.parse(cli(['lint', FIX, '--json']).stdout).summary.errors
    assert.equal((xml.match(/<failure /g) ?? []).length, errors)
    assert.doesNotMatch(xml, /<(?!\/?(testsuites|testsuite|testcase|failure|system-out)\b|\?xml)/)
  })

  test('junit: valid for the schemas CI tools read', (t) => {
    const xml = cli(['lint', FIX, '--format', 'junit']).stdout
    if (!haveXmllint(t)) return
    // The schemas are not a rubber stamp: a failure without its testcase is refused.
    assertJunitValid(xml, xml.replace(/<testcase [^>]*>/, ''))
  })

  test('exit codes: --fail-severity, --max-warnings, --quiet', () => {
    assert.equal(cli(['lint', `${R}/w`]).code, 0)
    assert.equal(cli(['lint', `${R}/w`, '--fail-severity', 'warn']).code, 1)
    assert.equal(cli(['lint', `${R}/w`, '--max-warnings', '2']).code, 0)
    const r = cli(['lint', `${R}/w`, '--max-warnings', '1'])
    assert.equal(r.code, 1)
    assert.match(r.stdout, /too many warnings \(maximum: 1\)/)
    assert.equal(
      cli(['lint', `${R}/w`, '--quiet']).stdout,
      `✔ 1 file checked (1 manifest): no problems\nroot: ${R} (assumed; --root to set it)\n`,
    )
    assert.equal(cli(['lint', `${PACKS}/good`, '--fail-severity', 'info']).code, 0)
  })

  test('--rule and its errors', () => {
    const r = cli([
      'lint',
      `${R}/w`,
      '--rule',
      'practice/class-unset=error',
      '--rule',
      'practice/timeout-unset=off',
      '--json',
    ])
    assert.equal(r.code, 1)
    const doc = JSON.parse(r.stdout)
    assert.deepEqual(
      doc.files[0].findings.map((f: { rule_id: string; severity: string }) => `${f.rule_id}:${f.severity}`),
      ['practice/class-unset:error'],
    )
    assert.equal(cli(['lint', `${R}/w`, '--rule', 'nope=off']).code, 2)
    assert.equal(cli(['lint', `${R}/w`, '--rule', 'practice/class-unset=loud']).code, 2)
    assert.equal(cli(['lint', `${R}/w`, '--max-warnings', 'x']).code, 2)
  })

  test('--list-rules: every rule, and as JSON', () => {
    const r = cli(['lint', '--list-rules'])
    assert.equal(r.code, 0)
    const lines = r.stdout.trimEnd().split('\n')
    assert.deepEqual(
      lines.map((l) => l.split(/\s+/)[0]),
      RULES.map((x) => x.id),
    )
    const doc = JSON.parse(cli(['lint', '--list-rules', '--json']).stdout)
    assert.deepEqual(
      doc.rules.map((x: { rule_id: string }) => x.rule_id),
      RULES.map((x) => x.id),
    )
  })

  test('--show-tool: the exact definition, pretty or compact; why others are left out', () => {
    let r = cli(['lint', `${FIX}/good`, '--show-tool', '--json'])
    assert.equal(r.code, 0)
    assert.equal(
      r.stdout,
      '{"type":"function","function":{"name":"good","description":"Reports the free space of a filesystem, in bytes.\\n\\nReturns: {...} (subprocess skill output)","parameters":{"additionalProperties":false,"properties":{"path":{"default":"/","description":"Any path on the filesystem.","type":"string"}},"type":"object"}}}\n',
    )
    r = cli(['lint', `${FIX}/good`, '--show-tool'])
    assert.equal(r.code, 0)
    assert.deepEqual(JSON.parse(r.stdout).function.parameters.properties.path.default, '/')
    assert.match(r.stderr, /ONGRID_AGENT_KERNEL=legacy/)
    r = cli(['lint', FIX, '--show-tool', '--json'])
    assert.equal(r.code, 1)
    assert.equal(r.stdout.trimEnd().split('\n').length, 2) // good and sloppy
    assert.match(
      r.stderr,
      /no_shebang\/skill\.json: not offered to the LLM: class "mutating": only safe skills are offered/,
    )
    assert.match(r.stderr, /native\/SKILL\.md: not offered to the LLM: a SKILL\.md is a native skill/)
    assert.match(r.stdout, /"mode":\{"description":"Output mode \\u003chtml\\u003e\.","type":"string"\}/)
  })

  test('--show-tool: a schema nested up to Go’s depth of 10000 is shown as the bridge sends it', () => {
    const deep = (d: number) => `${'['.repeat(d)}${']'.repeat(d)}`
    // manifest 1, schema 2, properties 3, a 4, then 9996 arrays: 10000 levels.
    makeTree(R, {
      'deep/skill.json': `{"name":"deep","description":"Reports the free space of a filesystem.","entry":"run.sh","class":"safe","schema":{"type":"object","properties":{"b":{"enum":["<x>",1.50]},"a":{"default":${deep(9996)}}}}}`,
      'deep/run.sh': ECHO,
    })
    const r = cli(['lint', `${R}/deep`, '--show-tool', '--json'])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(
      r.stdout,
      `{"type":"function","function":{"name":"deep","description":"Reports the free space of a filesystem.\\n\\nReturns: {...} (subprocess skill output)","parameters":{"properties":{"a":{"default":${deep(9996)}},"b":{"enum":["\\u003cx\\u003e",1.5]}},"type":"object"}}}\n`,
    )
    const pretty = cli(['lint', `${R}/deep`, '--show-tool'])
    assert.equal(pretty.code, 0, pretty.stderr)
  })

  test('colour: only with FORCE_COLOR (not a terminal here), never with NO_COLOR', () => {
    assert.doesNotMatch(cli(['lint', FIX]).stdout, /\x1b\[/)
    assert.match(cli(['lint', FIX], { FORCE_COLOR: '1' }).stdout, /\x1b\[31m/)
    assert.doesNotMatch(cli(['lint', FIX], { NO_COLOR: '1' }).stdout, /\x1b\[/)
    // One policy with audit tail: NO_COLOR wins over FORCE_COLOR.
    assert.doesNotMatch(cli(['lint', FIX], { NO_COLOR: '1', FORCE_COLOR: '1' }).stdout, /\x1b\[/)
  })
})
