/**
 * What ESLint and ruff users reach for: rules selected by prefix or glob (--rule and a config's
 * rules:), --exit-zero, --statistics, --print-config.
 */
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { runCliSync } from '../helpers/cli.js'
import { makeTree, packWith, tempRoot } from '../helpers/tree.js'

const T = tempRoot('ongrid-lint-select-')
after(T.cleanup)
// A pack with practice/ findings (class and timeout unset, a short description) and schema/missing.
makeTree(T.root, {
  ...packWith('skills/a', { name: 'a', description: 'short' }),
  ...packWith('skills/b', { name: 'b', description: 'tiny text' }),
})
const lint = (...args: string[]) => runCliSync(['lint', ...args], { cwd: T.root })
const rulesOf = (stdout: string) => {
  const doc = JSON.parse(stdout)
  return doc.files.flatMap((f: { findings: { rule_id: string; severity: string }[] }) =>
    f.findings.map((x) => `${x.rule_id}=${x.severity}`),
  ) as string[]
}

describe('lint: rules selected by prefix or glob', () => {
  test('--rule with a glob and with a prefix sets every rule they select', () => {
    const before = rulesOf(lint('skills', '--json').stdout)
    assert.ok(before.some((r) => r.startsWith('practice/')))
    for (const sel of ['practice/*', 'practice', 'practice/']) {
      const after = rulesOf(lint('skills', '--json', '--rule', `${sel}=off`).stdout)
      assert.deepEqual(
        after,
        before.filter((r) => !r.startsWith('practice/')),
        sel,
      )
    }
  })

  test('in order: a later --rule wins for the rules both select', () => {
    const r = rulesOf(
      lint('skills', '--json', '--rule', 'practice/*=off', '--rule', 'practice/class-unset=error').stdout,
    )
    assert.deepEqual(
      r.filter((x) => x.startsWith('practice/')),
      ['practice/class-unset=error', 'practice/class-unset=error'],
    )
  })

  test('a selector that selects nothing: one line with a did-you-mean, exit 2', () => {
    const r = lint('skills', '--rule', 'practise/*=off')
    assert.equal(r.code, 2)
    assert.match(r.stderr, /--rule practise\/\*=off: unknown rule "practise\/\*"/)
  })

  test('a config’s rules: takes the same selectors (practice/*: off), a later key winning', () => {
    const cfg = join(T.root, 'select.yaml')
    writeFileSync(cfg, 'rules:\n  practice/*: off\n  practice/timeout-unset: error\n  schema: warn\n')
    const r = lint('skills', '--json', '--config', cfg)
    assert.equal(r.code, 1, r.stderr)
    const found = rulesOf(r.stdout)
    assert.deepEqual(
      found.filter((x) => x.startsWith('practice/')),
      ['practice/timeout-unset=error', 'practice/timeout-unset=error'],
    )
    assert.ok(found.includes('schema/missing=warn'), found.join(' '))
  })
})

describe('lint --exit-zero', () => {
  test('findings do not fail the run, and the document says 0', () => {
    assert.equal(lint('skills', '--fail-severity', 'warn').code, 1)
    const r = lint('skills', '--fail-severity', 'warn', '--exit-zero', '--json')
    assert.equal(r.code, 0, r.stderr)
    const doc = JSON.parse(r.stdout)
    assert.deepEqual([doc.ok, doc.exit_code, doc.error], [true, 0, null])
    assert.ok(doc.summary.warnings > 0)
  })

  test('a usage error is still 2', () => {
    assert.equal(lint('skills', '--exit-zero', '--rule', 'nope=off').code, 2)
  })
})

describe('lint --statistics', () => {
  test('stylish: one line a rule, most first, then the total', () => {
    const r = lint('skills', '--statistics')
    assert.equal(r.code, 0, r.stderr)
    assert.equal(
      r.stdout,
      [
        '2  practice/class-unset         warning  2 fixable with --fix',
        '2  practice/description-length  warning',
        '2  practice/timeout-unset       warning',
        '2  schema/missing               info',
        '8 findings from 4 rules',
        '',
      ].join('\n'),
    )
  })

  test('json: a statistics list beside the findings', () => {
    const doc = JSON.parse(lint('skills', '--statistics', '--json').stdout)
    assert.deepEqual(doc.statistics[0], {
      rule_id: 'practice/class-unset',
      severity: 'warn',
      count: 2,
      fixable: 2,
    })
    assert.equal(doc.files.length, 2)
  })

  test('another format: one line, exit 2', () => {
    const r = lint('skills', '--statistics', '--format', 'sarif')
    assert.equal(r.code, 2)
    assert.match(r.stderr, /--statistics counts findings in the stylish or json format, not --format sarif/)
  })
})

describe('lint --print-config', () => {
  test('each rule’s severity and where it came from: default, the config’s key, a --rule', () => {
    makeTree(T.root, {
      'cfg/.ongrid-skill.yaml':
        'rules:\n  practice: info\n  practice/class-unset: error\nignore:\n  - old/**\n',
    })
    const r = runCliSync(['lint', '--print-config', 'new/skill.json', '--rule', 'schema/*=off', '--json'], {
      cwd: join(T.root, 'cfg'),
    })
    assert.equal(r.code, 0, r.stderr)
    const c = JSON.parse(r.stdout).config
    assert.equal(c.path, 'new/skill.json')
    assert.equal(c.file, '.ongrid-skill.yaml')
    assert.equal(c.ignored, false)
    const by = new Map(c.rules.map((x: { rule_id: string }) => [x.rule_id, x]))
    assert.deepEqual(by.get('practice/bom'), {
      rule_id: 'practice/bom',
      severity: 'info',
      source: 'config',
      by: 'practice',
    })
    assert.deepEqual(by.get('practice/class-unset'), {
      rule_id: 'practice/class-unset',
      severity: 'error',
      source: 'config',
      by: 'practice/class-unset',
    })
    assert.deepEqual(by.get('schema/missing'), {
      rule_id: 'schema/missing',
      severity: 'off',
      source: 'flag',
      by: 'schema/*=off',
    })
    assert.deepEqual(by.get('manager/build'), {
      rule_id: 'manager/build',
      severity: 'error',
      source: 'default',
    })
    const ignored = runCliSync(['lint', '--print-config', 'old/x/skill.json'], { cwd: join(T.root, 'cfg') })
    assert.match(ignored.stdout, /^ignore: old\/\*\* \(this file is ignored\)$/m)
    assert.match(ignored.stdout, /^ {2}practice\/bom +info +\.ongrid-skill\.yaml: practice$/m)
  })
})

describe('lint --stdin', () => {
  test('the text on stdin is judged as the file --stdin-filename names, which need not exist', () => {
    const r = runCliSync(['lint', '--stdin', '--stdin-filename', 'skills/new/skill.json', '--json'], {
      cwd: T.root,
      input: '{"name":"Bad-Name","description":"short"}',
    })
    assert.equal(r.code, 1, r.stderr)
    const doc = JSON.parse(r.stdout)
    assert.deepEqual(
      doc.files.map((f: { path: string; kind: string; name: string }) => [f.path, f.kind, f.name]),
      [['skills/new/skill.json', 'manifest', 'Bad-Name']],
    )
    assert.ok(rulesOf(r.stdout).includes('manager/build=error'))
  })

  test('the path decides the kind and the config', () => {
    makeTree(T.root, { 'cfgd/.ongrid-skill.yaml': 'rules:\n  native: off\n' })
    const text = '---\nname: x\n---\nbody\n'
    const r = runCliSync(['lint', '--stdin', '--stdin-filename', 'other/SKILL.md', '--json'], {
      cwd: T.root,
      input: text,
    })
    assert.equal(JSON.parse(r.stdout).files[0].kind, 'native')
    assert.ok(rulesOf(r.stdout).includes('native/missing-description=error'), r.stdout)
    const off = runCliSync(['lint', '--stdin', '--stdin-filename', 'cfgd/x/SKILL.md', '--json'], {
      cwd: T.root,
      input: text,
    })
    assert.deepEqual(rulesOf(off.stdout), [])
  })

  test('an unsaved buffer wins over the file on the disk', () => {
    const r = runCliSync(['lint', '--stdin', '--stdin-filename', 'skills/a/skill.json', '--json'], {
      cwd: T.root,
      input: '{"name":"a","description":"Now a description long enough for the rule.","entry":"run.sh"}',
    })
    assert.ok(!rulesOf(r.stdout).some((x) => x.startsWith('practice/description-length')), r.stdout)
  })

  test('with a PATH, with --fix, or --stdin-filename alone: one line, exit 2', () => {
    for (const [args, text] of [
      [['--stdin', 'skills'], /--stdin lints the text on stdin: give no PATH/],
      [['--stdin', '--fix'], /--stdin: not with --fix/],
      [['--stdin-filename', 'x.json'], /--stdin-filename names the text on stdin: give --stdin with it/],
    ] as const) {
      const r = runCliSync(['lint', ...args], { cwd: T.root, input: '{}' })
      assert.equal(r.code, 2, args.join(' '))
      assert.match(r.stderr, text)
    }
  })
})

describe('lint --fix-suggestions', () => {
  const pack = () => {
    const dir = join(T.root, `sug-${Math.random().toString(36).slice(2)}`)
    makeTree(dir, {
      'p/skill.json':
        '{"name":"p","description":"A skill that says hello to everyone.","entry":"run.sh","class":"safe","timeout":5}\n',
      'p/run.sh': { exec: '#!/bin/sh\necho {}\n' },
    })
    return dir
  }

  test('plain --fix never applies a suggestion', () => {
    const dir = pack()
    runCliSync(['lint', 'p', '--fix'], { cwd: dir })
    assert.match(readFileSync(join(dir, 'p/skill.json'), 'utf8'), /"timeout":5/)
  })

  test('with --fix: each suggestion listed on stderr, then written', () => {
    const dir = pack()
    const r = runCliSync(['lint', 'p', '--fix', '--fix-suggestions'], { cwd: dir })
    assert.equal(r.code, 0, r.stderr)
    assert.match(readFileSync(join(dir, 'p/skill.json'), 'utf8'), /"timeout_seconds":5\}/)
    assert.match(
      r.stderr,
      /^p\/skill\.json: applying suggestion \(practice\/near-miss-key\): rename "timeout" to "timeout_seconds".*\nfixed 1 problem in 1 file\n/m,
    )
  })

  test('with --fix-dry-run: listed and in the diff, nothing written', () => {
    const dir = pack()
    const r = runCliSync(['lint', 'p', '--fix-dry-run', '--fix-suggestions'], { cwd: dir })
    assert.equal(r.code, 1)
    assert.match(r.stdout, /^\+.*"timeout_seconds":5\}$/m)
    assert.match(r.stderr, /would apply suggestion \(practice\/near-miss-key\)/)
    assert.match(readFileSync(join(dir, 'p/skill.json'), 'utf8'), /"timeout":5/)
  })

  test('without --fix: one line, exit 2', () => {
    const r = runCliSync(['lint', 'p', '--fix-suggestions'], { cwd: pack() })
    assert.equal(r.code, 2)
    assert.match(r.stderr, /--fix-suggestions: give --fix or --fix-dry-run with it/)
  })
})

describe('lint: "class": "Safe"', () => {
  test('a hint and a suggestion of "safe" (the manager compares exactly), which plain --fix leaves', () => {
    const dir = join(T.root, 'class-case')
    makeTree(dir, {
      'p/skill.json':
        '{"name":"p","description":"A skill that says hello to everyone.","entry":"run.sh","class":"Safe","timeout_seconds":5}\n',
      'p/run.sh': { exec: '#!/bin/sh\necho {}\n' },
    })
    const doc = JSON.parse(runCliSync(['lint', 'p', '--json'], { cwd: dir }).stdout)
    const f = doc.files[0].findings.find((x: { rule_id: string }) => x.rule_id === 'manager/build')
    assert.equal(f.message, 'class "Safe" invalid')
    assert.equal(f.hint, 'the manager\'s classes are lower case: "safe".')
    assert.equal(f.suggestions[0].fix.edits[0].text, '"safe"')
    runCliSync(['lint', 'p', '--fix'], { cwd: dir })
    assert.match(readFileSync(join(dir, 'p/skill.json'), 'utf8'), /"class":"Safe"/)
    const r = runCliSync(['lint', 'p', '--fix', '--fix-suggestions'], { cwd: dir })
    assert.equal(r.code, 0, r.stderr)
    assert.match(readFileSync(join(dir, 'p/skill.json'), 'utf8'), /"class":"safe"/)
  })
})
