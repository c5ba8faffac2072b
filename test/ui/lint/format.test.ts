import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { fromText } from '../../../src/core/go/gostring.js'
import type { FileReport } from '../../../src/core/lint/engine.js'
import { fixDiffsOf } from '../../../src/core/lint/example-fix.js'
import { RULES } from '../../../src/core/lint/registry.js'
import type { Finding, RuleMeta, TargetKind } from '../../../src/core/lint/types.js'
import { packageVersion } from '../../../src/core/package-root.js'
import { renderLint } from '../../../src/ui/lint/format.js'
import { github } from '../../../src/ui/lint/github.js'
import { json } from '../../../src/ui/lint/json.js'
import { junit } from '../../../src/ui/lint/junit.js'
import { listRules } from '../../../src/ui/lint/list-rules.js'
import { counts, displayPath, fails, type LintOutput, plural, repoRoot } from '../../../src/ui/lint/model.js'
import { RULES_DOC_URL, ruleAnchor } from '../../../src/ui/lint/rule-link.js'
import { rulesDoc } from '../../../src/ui/lint/rules-doc.js'
import { sarif } from '../../../src/ui/lint/sarif.js'
import { chalkPaint, NO_PAINT, type Paint, stylish } from '../../../src/ui/lint/stylish.js'
import { expectGolden } from '../../helpers/golden.js'

// Each output format, exactly, on one small report: a file with a finding of each severity
// (quotes, markup and a control byte in a message, a hint, a two-line message), a dir and a
// file without findings, files ignored by a config.

function file(path: string, kind: TargetKind | 'dir', findings: Omit<Finding, 'file'>[]): FileReport {
  return {
    kind,
    path,
    file: path,
    name: null,
    findings: findings.map((f) => ({ ...f, file: path })),
    ignored: false,
    ctx: null,
  }
}

const RULE_METAS: RuleMeta[] = [
  { id: 'manager/parse', severity: 'error', category: 'manager', kind: 'any', docs: 'Parse | fails.' },
  {
    id: 'practice/class-unset',
    severity: 'warn',
    category: 'best-practice',
    kind: 'manifest',
    docs: 'Class unset.',
  },
  { id: 'native/yaml', severity: 'info', category: 'manager', kind: 'native', docs: 'YAML.' },
]

const ERROR = {
  ruleId: 'manager/parse',
  severity: 'error',
  line: 2,
  column: 3,
  offset: 5,
  message: 'bad "x" <y> & z\u0001',
  hint: 'fix it',
} as const
const WARN = {
  ruleId: 'practice/class-unset',
  severity: 'warn',
  line: 10,
  column: 12,
  offset: 90,
  message: 'first\nsecond',
} as const
const INFO = {
  ruleId: 'native/yaml',
  severity: 'info',
  line: 1,
  column: 1,
  offset: null,
  message: 'note',
} as const

const OUT: LintOutput = {
  command: 'lint',
  rules: RULE_METAS,
  ignored: 2,
  cwd: '/w',
  repo: '/w',
  failSeverity: 'warn',
  files: [
    file('/w/a b/skill.json', 'manifest', [ERROR, WARN, INFO]),
    file('/w/dir', 'dir', []),
    file('/w/c/SKILL.md', 'native', []),
  ],
}

const only = (severity: 'error' | 'warn' | 'info' | null, over: Partial<LintOutput> = {}): LintOutput => ({
  ...OUT,
  ignored: 0,
  files: [
    file(
      '/w/p/skill.json',
      'manifest',
      [ERROR, WARN, INFO].filter((f) => f.severity === severity),
    ),
  ],
  ...over,
})

describe('model', () => {
  test('counts: files without dirs, manifests among them; findings by severity; ignored as given', () => {
    assert.deepEqual(counts(OUT), { files: 2, manifests: 1, errors: 1, warnings: 1, infos: 1, ignored: 2 })
  })
  test('displayPath: relative to the working dir; the dir itself is "."', () => {
    assert.equal(displayPath('/w/a/skill.json', '/w'), 'a/skill.json')
    assert.equal(displayPath('/w', '/w'), '.')
    assert.equal(displayPath('/x/y', '/w'), '../x/y')
  })
  test('fails: at or above the fail severity', () => {
    const f = { ...WARN, file: '' }
    assert.equal(fails(f, 'info'), true)
    assert.equal(fails(f, 'warn'), true)
    assert.equal(fails(f, 'error'), false)
  })
  test('plural', () => {
    assert.equal(plural(1, 'file'), '1 file')
    assert.equal(plural(0, 'file'), '0 files')
    assert.equal(plural(2, 'info', 'infos'), '2 infos')
  })
})

describe('--format stylish', () => {
  test('findings aligned, hints and continuation lines indented, the summary', () => {
    assert.equal(
      stylish(OUT),
      [
        'a b/skill.json',
        '  2:3    error    bad "x" <y> & z\u0001  manager/parse',
        '                  hint: fix it',
        '  10:12  warning  first  practice/class-unset',
        '                  second',
        '  1:1    info     note  native/yaml',
        '',
        '✖ 3 problems (1 error, 1 warning, 1 info) in 2 files checked (1 manifest), 2 ignored',
        '',
      ].join('\n'),
    )
  })

  test('paint: each part, and the summary in the colour of the worst severity', () => {
    const tag = (name: string) => (s: string) => `<${name}>${s}</${name}>`
    const paint: Paint = {
      path: tag('path'),
      error: tag('error'),
      warn: tag('warn'),
      info: tag('info'),
      dim: tag('dim'),
      ok: tag('ok'),
    }
    assert.equal(
      stylish(only('error'), paint),
      '<path>p/skill.json</path>\n  <dim>2:3</dim>  <error>error</error>  bad "x" <y> & z\u0001  <dim>manager/parse</dim>\n' +
        '              <dim>hint: fix it</dim>\n\n' +
        '<error>✖ 1 problem (1 error, 0 warnings, 0 infos) in 1 file checked (1 manifest)</error>\n',
    )
    assert.match(
      stylish(only('warn'), paint),
      /\n<warn>✖ 1 problem \(0 errors, 1 warning, 0 infos\) in 1 file checked \(1 manifest\)<\/warn>\n$/,
    )
    assert.match(
      stylish(only('info'), paint),
      /\n<info>✖ 1 problem \(0 errors, 0 warnings, 1 info\) in 1 file checked \(1 manifest\)<\/info>\n$/,
    )
    assert.equal(stylish(only(null), paint), '<ok>✔</ok> 1 file checked (1 manifest): no problems\n')
    assert.equal(
      stylish(only(null, { ignored: 1 })),
      '✔ 1 file checked (1 manifest), 1 ignored: no problems\n',
    )
    assert.equal(stylish(only(null, { command: 'marketplace check' })), '✔ 1 file checked: no problems\n')
  })

  test('NO_PAINT is the identity; chalkPaint colours each part', async () => {
    for (const f of Object.values(NO_PAINT)) assert.equal(f('x'), 'x')
    const { default: chalk } = await import('chalk')
    const level = chalk.level
    chalk.level = 1
    try {
      const p = await chalkPaint()
      assert.deepEqual(
        [p.path('x'), p.error('x'), p.warn('x'), p.info('x'), p.dim('x'), p.ok('x')],
        [
          '\x1b[4mx\x1b[24m',
          '\x1b[31mx\x1b[39m',
          '\x1b[33mx\x1b[39m',
          '\x1b[36mx\x1b[39m',
          '\x1b[2mx\x1b[22m',
          '\x1b[32mx\x1b[39m',
        ],
      )
    } finally {
      chalk.level = level
    }
  })
})

describe('--format junit', () => {
  test('a suite per file, failures at the fail severity, XML escaped, control characters dropped', () => {
    assert.equal(
      junit(OUT),
      `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="ongrid-skill lint" tests="5" failures="2" errors="0" time="0">
  <testsuite name="a b/skill.json" tests="3" failures="2" errors="0" skipped="0" time="0">
    <testcase classname="a b/skill.json" name="manager/parse 2:3" time="0">
      <failure type="error" message="bad &quot;x&quot; &lt;y&gt; &amp; z">a b/skill.json:2:3 error bad &quot;x&quot; &lt;y&gt; &amp; z
hint: fix it (manager/parse)</failure>
    </testcase>
    <testcase classname="a b/skill.json" name="practice/class-unset 10:12" time="0">
      <failure type="warn" message="first
second">a b/skill.json:10:12 warn first
second (practice/class-unset)</failure>
    </testcase>
    <testcase classname="a b/skill.json" name="native/yaml 1:1" time="0">
      <system-out>a b/skill.json:1:1 info note (native/yaml)</system-out>
    </testcase>
  </testsuite>
  <testsuite name="dir" tests="1" failures="0" errors="0" skipped="0" time="0">
    <testcase classname="dir" name="ongrid-skill lint" time="0"/>
  </testsuite>
  <testsuite name="c/SKILL.md" tests="1" failures="0" errors="0" skipped="0" time="0">
    <testcase classname="c/SKILL.md" name="ongrid-skill lint" time="0"/>
  </testsuite>
</testsuites>
`,
    )
  })

  test('every character XML 1.0 cannot carry is dropped', () => {
    const bad = '\u0000\u0008\u000b\u000c\u000e\u001f\ufffe\uffff'
    const out = junit(
      only('info', { files: [file(`/w/p${bad}`, 'manifest', [{ ...INFO, message: `a${bad}\tb` }])] }),
    )
    assert.match(out, /<system-out>p:1:1 info a\tb \(native\/yaml\)<\/system-out>/)
    assert.match(out, /<testsuite name="p" /)
  })
})

describe('--format json', () => {
  test('the document: relative paths, findings (hint only when there is one), the summary', () => {
    const text = json(OUT)
    const doc = {
      ok: true,
      exit_code: 0,
      command: 'lint',
      schema_version: 1,
      error: null,
      files: [
        {
          path: 'a b/skill.json',
          kind: 'manifest',
          name: null,
          findings: [
            {
              rule_id: 'manager/parse',
              severity: 'error',
              line: 2,
              column: 3,
              offset: 5,
              message: ERROR.message,
              hint: 'fix it',
              fixable: false,
            },
            {
              rule_id: WARN.ruleId,
              severity: 'warn',
              line: 10,
              column: 12,
              offset: 90,
              message: WARN.message,
              fixable: false,
            },
            {
              rule_id: INFO.ruleId,
              severity: 'info',
              line: 1,
              column: 1,
              offset: null,
              message: 'note',
              fixable: false,
            },
          ],
        },
        { path: 'dir', kind: 'dir', name: null, findings: [] },
        { path: 'c/SKILL.md', kind: 'native', name: null, findings: [] },
      ],
      summary: { files: 2, manifests: 1, errors: 1, warnings: 1, infos: 1, ignored: 2 },
    }
    assert.equal(text, `${JSON.stringify(doc, null, 2)}\n`)
    // With its exit code and why: the same envelope, ok false.
    const failed = JSON.parse(json({ ...OUT, exitCode: 1, failure: '1 finding at severity error or above' }))
    assert.deepEqual(
      [failed.ok, failed.exit_code, failed.error],
      [false, 1, { message: '1 finding at severity error or above', kind: 'findings' }],
    )
    assert.deepEqual(Object.keys(JSON.parse(text).files[0].findings[0]), [
      'rule_id',
      'severity',
      'line',
      'column',
      'offset',
      'message',
      'hint',
      'fixable',
    ])
  })

  test('a fix: its edits (byte ranges, text), the file and mode of a mode fix; suggestions', () => {
    const withFix: LintOutput = {
      ...OUT,
      files: [
        file('/w/a b/skill.json', 'manifest', [
          { ...WARN, fix: { edits: [{ range: [3, 3], text: fromText(',"class":"é"') }] } },
          { ...WARN, fix: { file: '/w/a b/run.sh', edits: [], mode: 0o755 } },
          {
            ...WARN,
            suggestions: [{ message: 'rename it', fix: { edits: [{ range: [1, 4], text: '"x"' }] } }],
          },
        ]),
      ],
    }
    const doc = JSON.parse(json(withFix))
    assert.deepEqual(
      doc.files[0].findings.map((x: Record<string, unknown>) => [x.fixable, x.fix, x.suggestions]),
      [
        [true, { edits: [{ range: [3, 3], text: ',"class":"é"' }] }, undefined],
        [true, { file: 'a b/run.sh', edits: [], mode: '0755' }, undefined],
        [false, undefined, [{ message: 'rename it', fix: { edits: [{ range: [1, 4], text: '"x"' }] } }]],
      ],
    )
    const results = JSON.parse(sarif(withFix, '1.2.3')).runs[0].results
    assert.deepEqual(
      results.map((r: { fixes?: unknown }) => r.fixes),
      [
        [
          {
            description: { text: `Fix: ${WARN.message}` },
            artifactChanges: [
              {
                artifactLocation: { uri: 'a%20b/skill.json', uriBaseId: '%SRCROOT%' },
                replacements: [
                  {
                    deletedRegion: { byteOffset: 3, byteLength: 0 },
                    insertedContent: { text: ',"class":"é"' },
                  },
                ],
              },
            ],
          },
        ],
        undefined,
        [
          {
            description: { text: 'rename it' },
            artifactChanges: [
              {
                artifactLocation: { uri: 'a%20b/skill.json', uriBaseId: '%SRCROOT%' },
                replacements: [
                  { deletedRegion: { byteOffset: 1, byteLength: 3 }, insertedContent: { text: '"x"' } },
                ],
              },
            ],
          },
        ],
      ],
    )
  })
})

describe('--format sarif', () => {
  test('rules with levels, anchors and descriptions; results with index, level, message and hint, location', () => {
    const loc = (startLine: number, startColumn: number) => [
      {
        physicalLocation: {
          artifactLocation: { uri: 'a%20b/skill.json', uriBaseId: '%SRCROOT%' },
          region: { startLine, startColumn },
        },
      },
    ]
    const doc = {
      $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
      version: '2.1.0',
      runs: [
        {
          tool: {
            driver: {
              name: 'ongrid-skill',
              version: '1.2.3',
              informationUri: 'https://github.com/ongridio/ongrid-skill/blob/main/docs/rules.md',
              rules: [
                {
                  id: 'manager/parse',
                  name: 'manager/parse',
                  shortDescription: { text: 'Parse | fails.' },
                  helpUri: 'https://github.com/ongridio/ongrid-skill/blob/main/docs/rules.md#manager-parse',
                  defaultConfiguration: { level: 'error' },
                  properties: { category: 'manager', appliesTo: 'any' },
                },
                {
                  id: 'practice/class-unset',
                  name: 'practice/class-unset',
                  shortDescription: { text: 'Class unset.' },
                  helpUri:
                    'https://github.com/ongridio/ongrid-skill/blob/main/docs/rules.md#practice-class-unset',
                  defaultConfiguration: { level: 'warning' },
                  properties: { category: 'best-practice', appliesTo: 'manifest' },
                },
                {
                  id: 'native/yaml',
                  name: 'native/yaml',
                  shortDescription: { text: 'YAML.' },
                  helpUri: 'https://github.com/ongridio/ongrid-skill/blob/main/docs/rules.md#native-yaml',
                  defaultConfiguration: { level: 'note' },
                  properties: { category: 'manager', appliesTo: 'native' },
                },
              ],
            },
          },
          originalUriBaseIds: { '%SRCROOT%': { uri: 'file:///w/' } },
          columnKind: 'unicodeCodePoints',
          results: [
            {
              ruleId: 'manager/parse',
              ruleIndex: 0,
              level: 'error',
              message: { text: 'bad "x" <y> & z\u0001\nfix it' },
              locations: loc(2, 3),
            },
            {
              ruleId: 'practice/class-unset',
              ruleIndex: 1,
              level: 'warning',
              message: { text: 'first\nsecond' },
              locations: loc(10, 12),
            },
            {
              ruleId: 'native/yaml',
              ruleIndex: 2,
              level: 'note',
              message: { text: 'note' },
              locations: loc(1, 1),
            },
          ],
        },
      ],
    }
    assert.equal(sarif(OUT, '1.2.3'), `${JSON.stringify(doc, null, 2)}\n`)
  })

  test('a working dir given with a trailing slash; a rule not in the run has index -1', () => {
    const doc = JSON.parse(sarif({ ...only('info'), cwd: '/w/', rules: [] }, 'v'))
    assert.equal(doc.runs[0].originalUriBaseIds['%SRCROOT%'].uri, 'file:///w/')
    assert.equal(doc.runs[0].results[0].ruleIndex, -1)
    assert.equal(doc.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri, 'p/skill.json')
  })

  test('anchors and the docs URL', () => {
    assert.equal(ruleAnchor('practice/timeout-too-long'), 'practice-timeout-too-long')
    assert.equal(ruleAnchor('a/b/c'), 'a-b-c')
    assert.equal(RULES_DOC_URL, 'https://github.com/ongridio/ongrid-skill/blob/main/docs/rules.md')
  })
})

describe('--list-rules and docs/rules.md', () => {
  test('listRules: id, severity, category and docs in aligned columns', () => {
    assert.equal(
      listRules(RULE_METAS),
      'manager/parse         error  manager        Parse | fails.\n' +
        'practice/class-unset  warn   best-practice  Class unset.\n' +
        'native/yaml           info   manager        YAML.\n',
    )
  })

  test('rulesDoc: the tables by category (| escaped), a section per rule', () => {
    const doc = rulesDoc(RULE_METAS)
    assert.ok(doc.startsWith('<!-- Generated by scripts/gen-rules-doc.mjs from src/core/lint/registry.ts'))
    assert.ok(
      doc.includes(
        '## Manager rules (`validate` and `lint`)\n\n| rule | default | applies to | what it reports |\n| --- | --- | --- | --- |\n' +
          '| [`manager/parse`](#manager-parse) | error | skill.json, SKILL.md | Parse \\| fails. |\n' +
          '| [`native/yaml`](#native-yaml) | info | SKILL.md | YAML. |\n\n## Best practices (`lint` only)\n\n' +
          '| rule | default | applies to | what it reports |\n| --- | --- | --- | --- |\n' +
          '| [`practice/class-unset`](#practice-class-unset) | warn | skill.json | Class unset. |\n\n## Details\n\n',
      ),
    )
    assert.ok(
      doc.endsWith(
        '<a id="manager-parse"></a>\n### `manager/parse`\n\nDefault severity: **error** · applies to skill.json, SKILL.md\n\nParse | fails.\n\n' +
          '<a id="practice-class-unset"></a>\n### `practice/class-unset`\n\nDefault severity: **warn** · applies to skill.json\n\nClass unset.\n\n' +
          '<a id="native-yaml"></a>\n### `native/yaml`\n\nDefault severity: **info** · applies to SKILL.md\n\nYAML.\n',
      ),
    )
  })

  test('docs/rules.md is what the registry generates', async () => {
    expectGolden('docs/rules.md', rulesDoc(RULES, await fixDiffsOf(RULES)))
  })
})

describe('renderLint: each format name to its formatter', () => {
  test('the same text as the formatter called directly', async () => {
    const saved = { NO_COLOR: process.env.NO_COLOR, FORCE_COLOR: process.env.FORCE_COLOR }
    process.env.NO_COLOR = '1'
    try {
      assert.equal(await renderLint('stylish', OUT), stylish(OUT))
      assert.equal(await renderLint('json', OUT), json(OUT))
      assert.equal(await renderLint('sarif', OUT), sarif(OUT, packageVersion()))
      assert.equal(await renderLint('github', OUT), github(OUT))
      assert.equal(await renderLint('junit', OUT), junit(OUT))
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k]
        else process.env[k] = v
      }
    }
  })
})

describe('repoRoot: what CI annotations are relative to', () => {
  test('GITHUB_WORKSPACE (relative to cwd), else the nearest dir holding .git, else cwd', () => {
    const top = mkdtempSync(join(tmpdir(), 'ongrid-repo-'))
    try {
      mkdirSync(join(top, 'r/.git'), { recursive: true })
      mkdirSync(join(top, 'r/a/b'), { recursive: true })
      mkdirSync(join(top, 'w/x'), { recursive: true })
      writeFileSync(join(top, 'w/.git'), 'gitdir: /elsewhere\n') // a worktree's .git file
      mkdirSync(join(top, 'none/y'), { recursive: true })
      assert.equal(repoRoot(join(top, 'r/a/b'), { GITHUB_WORKSPACE: '../..' }), join(top, 'r'))
      assert.equal(repoRoot(join(top, 'r/a/b'), { GITHUB_WORKSPACE: '/ws' }), '/ws')
      assert.equal(repoRoot(join(top, 'r/a/b'), { GITHUB_WORKSPACE: '' }), join(top, 'r'))
      assert.equal(repoRoot(join(top, 'r/a/b'), {}), join(top, 'r'))
      assert.equal(repoRoot(join(top, 'r'), {}), join(top, 'r'))
      assert.equal(repoRoot(join(top, 'w/x'), {}), join(top, 'w'))
      // No .git above (tmpdir is assumed outside any repository): cwd itself.
      assert.equal(repoRoot(join(top, 'none/y'), {}), join(top, 'none/y'))
    } finally {
      rmSync(top, { recursive: true, force: true })
    }
  })
})

describe('stylish: on a terminal, and the manifests found', () => {
  const ESC = { ...ERROR, message: 'name "\x1b]52;c;aGk=\x07x" bad\nsecond \x1b[2J', hint: 'try \x1b[31m' }
  const tty = (terminal: boolean) =>
    stylish({ ...OUT, terminal, files: [file('/w/p\x1bq\nforged/skill.json', 'manifest', [ESC])] })
  test('control characters and newlines escaped on a terminal (path, message, hint), raw off it', () => {
    const on = tty(true)
    assert.ok(!on.includes('\x1b'), JSON.stringify(on))
    assert.match(on, /^p\\x1bq\\nforged\/skill\.json\n/)
    // One line per finding: a newline in a message cannot print a line of its own.
    assert.match(on, /name "\\x1b\]52;c;aGk=\\ax" bad\\nsecond \\x1b\[2J {2}manager\/parse\n/)
    assert.match(on, /hint: try \\x1b\[31m\n/)
    const off = tty(false)
    assert.ok(
      off.includes('p\x1bq\nforged/skill.json\n') &&
        off.includes('\x1b]52;c;aGk=\x07x') &&
        /\n {14}second \x1b\[2J\n/.test(off) &&
        off.includes('try \x1b[31m'),
      JSON.stringify(off),
    )
  })
  test('validate and lint count the manifests; the marketplace checks do not', () => {
    assert.match(
      stylish(only(null, { command: 'validate' })),
      /^✔ 1 file checked \(1 manifest\): no problems\n$/,
    )
    assert.match(stylish(only(null)), /^✔ 1 file checked \(1 manifest\): no problems\n$/)
    assert.equal(stylish(only(null, { command: 'marketplace verify' })), '✔ 1 file checked: no problems\n')
  })
})

describe('rulesDoc: example files', () => {
  test('fences no line can close, languages by extension, the BOM and executables said, links and dirs named', () => {
    const rule: RuleMeta = {
      id: 'x/y',
      severity: 'warn',
      category: 'best-practice',
      kind: 'manifest',
      docs: 'D.',
      examples: {
        bad: [
          {
            files: {
              'a/README.md': 'text\n````\ninner\n````\n',
              'a/run.sh': { exec: '\ufeff#!/bin/sh\necho' },
              'a/noext': 'plain',
              'a/link': { link: '/etc' },
              'a/d': { dir: true, mode: 0o700 },
            },
          },
        ],
        good: [],
      },
    }
    const doc = rulesDoc([rule])
    for (const part of [
      '`a/README.md`:\n\n`````markdown\ntext\n````\ninner\n````\n`````\n',
      '`a/run.sh` (executable; starts with a UTF-8 byte order mark):\n\n```sh\n#!/bin/sh\necho\n```\n',
      '`a/noext`:\n\n```\nplain\n```\n',
      '`a/link`: a symlink to `/etc`\n',
      '`a/d/`: a dir, mode 700\n',
    ])
      assert.ok(doc.includes(part), `${JSON.stringify(part)} not in\n${doc}`)
    assert.ok(!doc.includes('\ufeff'))
  })
})
