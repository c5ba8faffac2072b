import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { FileReport } from '../../../src/core/lint/engine.js'
import type { Finding } from '../../../src/core/lint/types.js'
import { github } from '../../../src/ui/lint/github.js'
import type { LintOutput } from '../../../src/ui/lint/model.js'

function output(file: string, findings: Omit<Finding, 'file'>[]): LintOutput {
  const report: FileReport = {
    kind: 'manifest',
    path: file,
    file,
    name: null,
    findings: findings.map((f) => ({ ...f, file })),
    ignored: false,
    ctx: null,
  }
  return {
    command: 'lint',
    files: [report],
    rules: [],
    ignored: 0,
    cwd: '/w',
    repo: '/w',
    failSeverity: 'error',
  }
}

const at = { line: 3, column: 7, offset: 12 }

// GitHub's workflow commands: in data, % CR LF are escaped; in property values also : and ,.
describe('--format github', () => {
  test('properties escape % CR LF : and , (file and title); data escapes % CR LF only', () => {
    const out = github(
      output('/w/a,b:c%d\r\n/skill.json', [
        { ruleId: 'x:y,z', severity: 'error', message: 'bad 100%\r\nx: a,b', hint: 'try: c,d', ...at },
      ]),
    )
    assert.equal(
      out,
      '::error file=a%2Cb%3Ac%25d%0D%0A/skill.json,line=3,col=7,title=x%3Ay%2Cz::bad 100%25%0D%0Ax: a,b%0Atry: c,d\n',
    )
  })

  test('one command per finding, by severity: error, warning, notice; no hint, no newline', () => {
    const out = github(
      output('/w/p/skill.json', [
        { ruleId: 'manager/parse', severity: 'error', message: 'e', ...at },
        { ruleId: 'practice/class-unset', severity: 'warn', message: 'w', line: 1, column: 1, offset: 0 },
        { ruleId: 'schema/missing', severity: 'info', message: 'i', line: 2, column: 5, offset: null },
      ]),
    )
    assert.equal(
      out,
      [
        '::error file=p/skill.json,line=3,col=7,title=manager/parse::e',
        '::warning file=p/skill.json,line=1,col=1,title=practice/class-unset::w',
        '::notice file=p/skill.json,line=2,col=5,title=schema/missing::i',
        '',
      ].join('\n'),
    )
  })

  test('no value forges a workflow command: % is escaped first, CR and LF never left raw', () => {
    const out = github(
      output('/w/p/skill.json', [
        {
          ruleId: 'r',
          severity: 'error',
          message: 'x%0A::add-mask::y\n::stop-commands::z\r::error::w',
          hint: '%0D::warning::v',
          ...at,
        },
      ]),
    )
    assert.equal(out.split('\n').length, 2, out)
    assert.ok(out.startsWith('::error file=p/skill.json,'), out)
    assert.ok(
      out.endsWith('::x%250A::add-mask::y%0A::stop-commands::z%0D::error::w%0A%250D::warning::v\n'),
      out,
    )
  })

  test('on a terminal other control characters are escaped as %q would; raw for the runner', () => {
    const o = output('/w/p\x1b]0;t\x07/skill.json', [
      { ruleId: 'r', severity: 'warn', message: 'name "\x1b[2J\u009b"', ...at },
    ])
    assert.equal(
      github({ ...o, terminal: true }),
      '::warning file=p\\x1b]0;t\\a/skill.json,line=3,col=7,title=r::name "\\x1b[2J\\u009b"\n',
    )
    assert.equal(
      github(o),
      '::warning file=p\x1b]0;t\x07/skill.json,line=3,col=7,title=r::name "\x1b[2J\u009b"\n',
    )
  })

  test('no findings, no output', () => {
    assert.equal(github(output('/w/p/skill.json', [])), '')
  })
})
