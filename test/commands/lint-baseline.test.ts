import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { after, beforeEach, describe, test } from 'node:test'
import { runCliSync } from '../helpers/cli.js'
import { ECHO, makeTree, tempRoot } from '../helpers/tree.js'

// lint --baseline, --update-baseline, --prune-baseline through the built CLI, in a repository.
const T = tempRoot('ongrid-lint-baseline-')
after(T.cleanup)

let n = 0
let R = ''
const BASELINE = '.ongrid-skill-baseline.json'

/** A pack whose description is too short and whose class is unset (two warnings), `lead` lines first. */
const pack = (name: string, lead = '') =>
  `{\n${lead}  "name": "${name}",\n  "description": "short",\n  "entry": "run.sh",\n  "timeout_seconds": 10,\n  "schema": {"type": "object", "properties": {}, "additionalProperties": false}\n}\n`

// The packs here share their name's words and their description: practice/confusable-tool would
// report each pair; what these tests count is the other rules' findings.
const lint = (args: string[], cwd = R) =>
  runCliSync(['lint', '--rule', 'practice/confusable-tool=off', ...args], { cwd })
const json = (args: string[], cwd = R) => JSON.parse(lint([...args, '--format', 'json'], cwd).stdout)
const baselineOf = (dir = R) => readFileSync(join(dir, BASELINE), 'utf8')

beforeEach(() => {
  R = join(T.root, `repo${n++}`)
  makeTree(R, {
    '.git/HEAD': 'ref: refs/heads/main\n',
    'skills/a/skill.json': pack('pack_a'),
    'skills/a/run.sh': ECHO,
  })
})

describe('lint --update-baseline, then lint', () => {
  test('recorded findings are baselined: exit 0, counted, not listed; the file is keyed without line numbers', () => {
    assert.equal(lint(['skills', '--fail-severity', 'warn']).code, 1)
    const u = lint(['skills', '--update-baseline', '--fail-severity', 'warn'])
    assert.equal(u.code, 0, u.stderr)
    assert.equal(u.stderr, `baseline ${BASELINE}: 2 findings recorded\n`)
    const doc = JSON.parse(baselineOf())
    assert.deepEqual(Object.keys(doc.files), ['skills/a/skill.json'])
    assert.deepEqual(Object.keys(doc.files['skills/a/skill.json']), [
      'practice/class-unset',
      'practice/description-length',
    ])
    assert.deepEqual(doc.files['skills/a/skill.json']['practice/description-length'], [
      {
        at: '/description',
        message:
          'the description has 5 characters: say what the skill does and when to use it in at least 20',
        count: 1,
      },
    ])
    assert.ok(!baselineOf().includes('"line"'))
    const r = lint(['skills', '--fail-severity', 'warn'])
    assert.equal(r.code, 0, r.stdout)
    assert.match(
      r.stdout,
      /^✔ 1 file checked \(1 manifest\): no new problems\n2 baselined findings not shown \(\.ongrid-skill-baseline\.json\)\n/,
    )
    assert.ok(!r.stdout.includes('practice/'))
  })

  test('the baseline survives lines inserted above its findings', () => {
    lint(['skills', '--update-baseline'])
    writeFileSync(join(R, 'skills/a/skill.json'), pack('pack_a', '  "Version": "1",\n\n\n\n'))
    const r = json(['skills', '--fail-severity', 'warn'])
    const findings = r.files[0].findings
    // The inserted key is a finding of its own, new; the two recorded ones moved down and stay baselined.
    assert.deepEqual(
      findings.map((f: { rule_id: string; line: number; baselined: boolean }) => [
        f.rule_id,
        f.line,
        f.baselined,
      ]),
      [
        ['practice/class-unset', 1, true],
        ['practice/unknown-key', 2, false],
        ['practice/description-length', 7, true],
      ],
    )
    assert.equal(r.summary.baselined, 2)
    assert.equal(r.summary.fixed, 0)
    assert.equal(lint(['skills', '--fail-severity', 'warn']).code, 0)
  })

  test('a new finding fails the run; the same rule in another file is new too', () => {
    lint(['skills', '--update-baseline'])
    makeTree(R, { 'skills/b/skill.json': pack('pack_b'), 'skills/b/run.sh': ECHO })
    const r = lint(['skills', '--fail-severity', 'warn'])
    assert.equal(r.code, 1)
    assert.match(r.stdout, /^skills\/b\/skill\.json\n/)
    assert.ok(!r.stdout.includes('skills/a/'))
    assert.match(
      r.stdout,
      /✖ 2 problems \(0 errors, 2 warnings, 0 infos\) in 2 files checked \(2 manifests\)\n2 baselined findings not shown/,
    )
  })

  test('counts: a second finding of a recorded fingerprint is new', () => {
    // Two packs in one file cannot be; two case files of one pack can: use one file's findings twice.
    writeFileSync(
      join(R, BASELINE),
      JSON.stringify({
        version: 1,
        files: {
          'skills/a/skill.json': {
            'practice/class-unset': [
              {
                at: '',
                message:
                  'class is not set: the manager defaults it to "safe" without a word (offered to the LLM, runnable by every role); set "safe", "mutating" or "dangerous" explicitly',
                count: 2,
              },
            ],
          },
        },
      }),
    )
    const r = json(['skills', '--fail-severity', 'warn'])
    assert.equal(r.summary.baselined, 1)
    assert.equal(r.summary.warnings, 1)
    // The entry counted 2 and matched 1: one is fixed.
    assert.equal(r.summary.fixed, 1)
    assert.deepEqual(r.baseline.fixed, [
      {
        path: 'skills/a/skill.json',
        rule_id: 'practice/class-unset',
        at: '',
        message:
          'class is not set: the manager defaults it to "safe" without a word (offered to the LLM, runnable by every role); set "safe", "mutating" or "dangerous" explicitly',
        count: 1,
      },
    ])
  })
})

describe('fixed findings and --prune-baseline', () => {
  test('a baselined finding that disappears is reported as fixed; --prune-baseline drops it', () => {
    lint(['skills', '--update-baseline'])
    writeFileSync(
      join(R, 'skills/a/skill.json'),
      pack('pack_a').replace('"short"', '"Reports the free space of a disk."'),
    )
    const r = lint(['skills', '--fail-severity', 'warn'])
    assert.equal(r.code, 0)
    assert.match(r.stdout, /\n1 baselined finding no longer found: drop it with --prune-baseline\n/)
    const gh = lint(['skills', '--format', 'github'])
    assert.match(
      gh.stdout,
      /^::notice title=ongrid-skill baseline::1 baselined finding no longer found in \.ongrid-skill-baseline\.json: drop it with --prune-baseline\n$/,
    )
    const p = lint(['skills', '--prune-baseline'])
    assert.equal(p.code, 0)
    assert.equal(p.stderr, `baseline ${BASELINE}: 1 fixed finding pruned, 1 finding left\n`)
    assert.deepEqual(Object.keys(JSON.parse(baselineOf()).files['skills/a/skill.json']), [
      'practice/class-unset',
    ])
    assert.ok(!lint(['skills']).stdout.includes('no longer found'))
    // Pruning adds nothing: a new finding stays new.
    makeTree(R, { 'skills/b/skill.json': pack('pack_b'), 'skills/b/run.sh': ECHO })
    assert.equal(lint(['skills', '--prune-baseline', '--fail-severity', 'warn']).code, 1)
    assert.ok(!baselineOf().includes('skills/b/'))
  })

  test('entries of files outside the PATHs checked are neither fixed nor pruned', () => {
    makeTree(R, { 'other/o/skill.json': pack('pack_o'), 'other/o/run.sh': ECHO })
    lint(['skills', 'other', '--update-baseline'])
    const p = lint(['skills', '--prune-baseline'])
    assert.equal(p.stderr, `baseline ${BASELINE}: unchanged (4 findings)\n`)
    const u = lint(['skills', '--update-baseline'])
    assert.equal(u.stderr, `baseline ${BASELINE}: unchanged (4 findings)\n`)
  })
})

describe('writing the baseline', () => {
  test('idempotent: a second update writes nothing (same inode, same bytes)', () => {
    lint(['skills', '--update-baseline'])
    const before = statSync(join(R, BASELINE))
    const text = baselineOf()
    const again = lint(['skills', '--update-baseline'])
    assert.equal(again.stderr, `baseline ${BASELINE}: unchanged (2 findings)\n`)
    const now = statSync(join(R, BASELINE))
    assert.equal(now.ino, before.ino)
    assert.equal(now.mtimeMs, before.mtimeMs)
    assert.equal(baselineOf(), text)
  })

  test('atomic: replaced through a temp file (new inode, no temp left), mode kept; never through a hard link', () => {
    lint(['skills', '--update-baseline'])
    const file = join(R, BASELINE)
    const before = statSync(file)
    makeTree(R, { 'skills/b/skill.json': pack('pack_b'), 'skills/b/run.sh': ECHO })
    assert.equal(lint(['skills', '--update-baseline']).code, 0)
    assert.notEqual(statSync(file).ino, before.ino)
    assert.equal(statSync(file).mode & 0o777, before.mode & 0o777)
    assert.deepEqual(
      readdirSync(R).filter((f) => f.includes('ongrid-tmp')),
      [],
    )
    // A second hard link (the other name, elsewhere, would change too): refused in one line.
    const text = baselineOf()
    linkSync(file, join(R, 'copy.json'))
    makeTree(R, { 'skills/c/skill.json': pack('pack_c'), 'skills/c/run.sh': ECHO })
    const r = lint(['skills', '--update-baseline'])
    assert.equal(r.code, 2)
    assert.equal(
      r.stderr,
      `ongrid-skill: --update-baseline: ${BASELINE} has 2 hard links, and ongrid-skill never writes through a link (the other names would change too)\n`,
    )
    assert.equal(baselineOf(), text)
    assert.equal(readFileSync(join(R, 'copy.json'), 'utf8'), text)
  })

  test('a baseline given by a symlink, or read-only, is read but never written', () => {
    mkdirSync(join(R, 'ci'))
    lint(['skills', '--update-baseline', '--baseline', 'ci/b.json'])
    const text = readFileSync(join(R, 'ci/b.json'), 'utf8')
    symlinkSync('ci/b.json', join(R, 'link.json'))
    // Read through the link: its findings are accepted.
    const read = lint(['skills', '--baseline', 'link.json'])
    assert.notEqual(read.code, 2, read.stderr)
    assert.doesNotMatch(read.stderr, /ongrid-skill:/)
    makeTree(R, { 'skills/b/skill.json': pack('pack_b'), 'skills/b/run.sh': ECHO })
    const r = lint(['skills', '--update-baseline', '--baseline', 'link.json'])
    assert.equal(r.code, 2)
    assert.equal(
      r.stderr,
      'ongrid-skill: --update-baseline: link.json is a symlink, and ongrid-skill never writes through a link\nhint: give --baseline the file itself to update it\n',
    )
    assert.equal(readFileSync(join(R, 'ci/b.json'), 'utf8'), text)
    chmodSync(join(R, 'ci/b.json'), 0o444)
    const ro = lint(['skills', '--prune-baseline', '--baseline', 'ci/b.json'])
    assert.equal(ro.code, 2)
    assert.match(
      ro.stderr,
      /^ongrid-skill: --prune-baseline: ci\/b.json is read-only \(mode 0444\), and ongrid-skill leaves it so\n$/,
    )
    assert.equal(readFileSync(join(R, 'ci/b.json'), 'utf8'), text)
  })

  test('created at the repository root when there is none; found from a subdir', () => {
    const sub = join(R, 'skills')
    const u = lint(['.', '--update-baseline'], sub)
    assert.equal(u.stderr, `baseline ../${BASELINE}: 2 findings recorded\n`)
    assert.ok(JSON.parse(baselineOf()).files['skills/a/skill.json'])
    const r = lint(['.', '--fail-severity', 'warn'], sub)
    assert.equal(r.code, 0)
    assert.match(r.stdout, /2 baselined findings not shown \(\.\.\/\.ongrid-skill-baseline\.json\)/)
  })

  test('not looked for above the repository root', () => {
    lint(['skills', '--update-baseline'])
    const inner = join(R, 'inner')
    makeTree(inner, { '.git/HEAD': 'x\n', 'skills/a/skill.json': pack('pack_a'), 'skills/a/run.sh': ECHO })
    const r = lint(['skills', '--fail-severity', 'warn'], inner)
    assert.equal(r.code, 1)
    assert.ok(!r.stdout.includes('baselined'))
  })
})

describe('a baseline that cannot be used: one line, exit 2', () => {
  const cases: [string, string | null, string][] = [
    [
      'not JSON',
      '{"version": 1,',
      `ongrid-skill: baseline b.json: not JSON: unexpected end of JSON input (line 1, column 14)\n`,
    ],
    [
      'another version',
      '{"version": 9, "files": {}}',
      'ongrid-skill: baseline b.json: version: expected 1, not 9\n',
    ],
    [
      'missing',
      null,
      'ongrid-skill: baseline b.json: no such file or directory\nhint: --update-baseline creates it\n',
    ],
  ]
  for (const [what, text, stderr] of cases) {
    test(what, () => {
      if (text !== null) writeFileSync(join(R, 'b.json'), text)
      const r = lint(['skills', '--baseline', 'b.json'])
      assert.equal(r.code, 2)
      assert.equal(r.stderr, stderr)
      assert.equal(r.stdout, '')
      if (text !== null) {
        // --update-baseline does not overwrite a file it cannot read.
        assert.equal(lint(['skills', '--baseline', 'b.json', '--update-baseline']).code, 2)
        assert.equal(readFileSync(join(R, 'b.json'), 'utf8'), text)
      }
    })
  }
  test('a dir, a FIFO', () => {
    assert.equal(
      lint(['skills', '--baseline', 'skills']).stderr,
      'ongrid-skill: baseline skills: not a regular file\n',
    )
    execFileSync('mkfifo', [join(R, 'f.json')])
    const r = runCliSync(['lint', 'skills', '--baseline', 'f.json'], { cwd: R, timeoutMs: 20_000 })
    assert.equal(r.hung, false)
    assert.equal(r.stderr, 'ongrid-skill: baseline f.json: not a regular file\n')
  })
  test('--update-baseline with --prune-baseline', () => {
    const r = lint(['skills', '--update-baseline', '--prune-baseline'])
    assert.equal(r.code, 2)
    assert.equal(
      r.stderr,
      'ongrid-skill: --update-baseline and --prune-baseline: give one (an update also prunes)\n',
    )
  })
  test('--prune-baseline with no baseline', () => {
    const r = lint(['skills', '--prune-baseline'])
    assert.equal(r.code, 2)
    assert.match(r.stderr, /^ongrid-skill: --prune-baseline: no \.ongrid-skill-baseline\.json here or above/)
  })
})

describe("validate ignores the baseline: the manager's verdict", () => {
  test('validate reports and fails on what the manager refuses, baseline or not', () => {
    makeTree(R, {
      'skills/bad/skill.json': '{"name": "Bad Name", "description": "x", "entry": "run.sh"}',
      'skills/bad/run.sh': ECHO,
    })
    const before = runCliSync(['validate', 'skills'], { cwd: R })
    assert.equal(before.code, 1)
    lint(['skills', '--update-baseline'])
    const after = runCliSync(['validate', 'skills'], { cwd: R })
    assert.equal(after.code, 1)
    assert.equal(after.stdout, before.stdout)
    // lint never records it either: its findings of manager rules stay new.
    assert.ok(!baselineOf().includes('manager/'))
    assert.equal(lint(['skills']).code, 1)
  })
})

describe('a skill.json that is not JSON', () => {
  test('lint --update-baseline ends (exit 1, its parse error new), keeps the other entries, records what its tolerant read finds', () => {
    lint(['skills', '--update-baseline'])
    makeTree(R, {
      'skills/b/skill.json': '{\n  "name": "pack_b",\n  "entry": "run.sh",\n}\n',
      'skills/b/run.sh': ECHO,
    })
    const r = runCliSync(['lint', 'skills', '--update-baseline'], { cwd: R, timeoutMs: 30_000 })
    assert.equal(r.hung, false)
    assert.equal(r.code, 1)
    assert.match(r.stdout, /manager\/parse/)
    const files = JSON.parse(baselineOf()).files
    assert.deepEqual(Object.keys(files), ['skills/a/skill.json', 'skills/b/skill.json'])
    // The manager's verdict is never recorded; the findings of the file as meant are.
    assert.ok(!Object.keys(files['skills/b/skill.json']).includes('manager/parse'))
    assert.ok(Object.keys(files['skills/b/skill.json']).includes('practice/class-unset'))
  })
})

describe('every format', () => {
  test('json, sarif and junit mark baselined findings; stylish and github leave them out', () => {
    lint(['skills', '--update-baseline'])
    makeTree(R, { 'skills/b/skill.json': pack('pack_b'), 'skills/b/run.sh': ECHO })
    const j = json(['skills'])
    assert.deepEqual(
      j.files.map((f: { findings: { baselined: boolean }[] }) => f.findings.map((x) => x.baselined)),
      [
        [true, true],
        [false, false],
      ],
    )
    assert.equal(j.baseline.path, BASELINE)
    const sarif = JSON.parse(lint(['skills', '--format', 'sarif']).stdout)
    const results = sarif.runs[0].results
    assert.deepEqual(
      results.map((x: { baselineState: string; suppressions?: unknown[] }) => [
        x.baselineState,
        x.suppressions?.length ?? 0,
      ]),
      [
        ['unchanged', 1],
        ['unchanged', 1],
        ['new', 0],
        ['new', 0],
      ],
    )
    assert.deepEqual(results[0].suppressions, [
      { kind: 'external', status: 'accepted', justification: `recorded in ${BASELINE}` },
    ])
    assert.deepEqual(sarif.runs[0].properties.baseline, { path: BASELINE, baselined: 2, fixed: 0 })
    const junit = lint(['skills', '--format', 'junit']).stdout
    assert.match(
      junit,
      /<testsuites name="ongrid-skill lint" tests="4" failures="0" errors="0" skipped="2" time="0">/,
    )
    assert.equal(junit.split('<skipped message="baselined (.ongrid-skill-baseline.json)"/>').length - 1, 2)
    const gh = lint(['skills', '--format', 'github']).stdout
    assert.ok(!gh.includes('skills/a/'))
    assert.equal(gh.split('\n').filter((l) => l.startsWith('::warning file=skills/b/')).length, 2)
  })

  test('without a baseline no format changes', () => {
    const j = json(['skills'])
    assert.equal(j.baseline, undefined)
    assert.equal(j.summary.baselined, undefined)
    assert.equal(j.files[0].findings[0].baselined, undefined)
    const sarif = JSON.parse(lint(['skills', '--format', 'sarif']).stdout)
    assert.equal(sarif.runs[0].results[0].baselineState, undefined)
  })
})

describe('lint --baseline: what the manager does not refuse, and what was not checked', () => {
  test('schema/invalid (the manager does not check schemas) is baselined', () => {
    makeTree(R, {
      'skills/s/skill.json':
        '{"name":"s","description":"A skill whose schema is not valid JSON Schema.","entry":"run.sh","class":"safe","timeout_seconds":5,"schema":{"type":"object","properties":{"x":{"type":"strnig"}}}}\n',
      'skills/s/run.sh': ECHO,
    })
    const before = json(['skills/s'])
    assert.ok(before.files[0].findings.some((x: { rule_id: string }) => x.rule_id === 'schema/invalid'))
    assert.equal(lint(['skills/s']).code, 1)
    lint(['skills/s', '--update-baseline'])
    assert.match(baselineOf(), /schema\/invalid/)
    const r = lint(['skills/s'])
    assert.equal(r.code, 0, r.stdout)
  })

  test('a pack a config ignores keeps its entries: not "no longer found", not pruned', () => {
    lint(['skills', '--update-baseline'])
    const recorded = baselineOf()
    assert.match(recorded, /skills\/a\/skill\.json/)
    writeFileSync(join(R, '.ongrid-skill.yaml'), 'ignore:\n  - skills/a\n')
    const doc = json(['skills'])
    assert.equal(doc.summary.fixed, 0, JSON.stringify(doc.baseline))
    assert.deepEqual(doc.baseline.fixed, [])
    lint(['skills', '--prune-baseline'])
    assert.equal(baselineOf(), recorded)
  })
})
