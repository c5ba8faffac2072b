import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { chmodSync, linkSync, readFileSync, statSync, symlinkSync, utimesSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { runCliSync } from '../helpers/cli.js'
import { makeTree, tempRoot } from '../helpers/tree.js'

const BOM = '\ufeff'
const MANIFEST = `${BOM}{\n  "Name": "disk_a",\n  "description": "Reports the free space of a filesystem, in bytes.",\n  "entry": "run.sh",\n  "timeout_seconds": "30",\n  "env_allow": [" PATH"],\n  "timeout": 5\n}\n`
const FIXED =
  '{\n  "name": "disk_a",\n  "description": "Reports the free space of a filesystem, in bytes.",\n  "entry": "run.sh",\n  "timeout_seconds": 30,\n  "env_allow": ["PATH"],\n  "timeout": 5,\n  "class": "safe"\n}\n'

describe('lint --fix, --fix-dry-run, --fix-type', () => {
  let R = ''
  let cleanup = () => {}
  let n = 0
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
  })
  after(() => cleanup())

  /** A fresh pack: the manifest above, a CRLF entry without its execute bit, a SKILL.md to normalise. */
  const tree = () => {
    const dir = `${R}/t${n++}`
    makeTree(dir, {
      'skills/a/skill.json': MANIFEST,
      'skills/a/run.sh': '#!/bin/sh\r\necho "{}"\n',
      'skills/n/SKILL.md': '---\nname: Disk Report # t\ndescription: Reports disks.\n---\n',
    })
    chmodSync(`${dir}/skills/a/run.sh`, 0o640)
    return dir
  }
  const read = (p: string) => readFileSync(p, 'utf8')

  test('--fix applies every certain fix, pass after pass, and reports what is left', () => {
    const dir = tree()
    const r = runCliSync(['lint', 'skills', '--fix'], { cwd: dir })
    assert.equal(r.stderr, 'fixed 8 problems in 3 files\nvalidate after the fixes: no errors\n')
    assert.equal(r.code, 0)
    assert.equal(read(`${dir}/skills/a/skill.json`), FIXED)
    assert.equal(read(`${dir}/skills/a/run.sh`), '#!/bin/sh\necho "{}"\n')
    assert.equal(statSync(`${dir}/skills/a/run.sh`).mode & 0o777, 0o750)
    assert.equal(
      read(`${dir}/skills/n/SKILL.md`),
      '---\nname: disk_report # t\ndescription: Reports disks.\n---\n',
    )
    // What is left: the near-miss key (a suggestion, not applied) among others.
    assert.match(r.stdout, /unknown key "timeout" is ignored by the manager/)
    assert.doesNotMatch(
      r.stdout,
      /practice\/(bom|class-unset|case-insensitive-key)|env\/whitespace|manager\/parse/,
    )
    // Idempotent: nothing more to fix.
    const again = runCliSync(['lint', 'skills', '--fix'], { cwd: dir })
    assert.equal(again.stderr, 'fixed 0 problems in 0 files\n')
    assert.equal(read(`${dir}/skills/a/skill.json`), FIXED)
  })

  test('a linked or read-only file is not fixable: said by --fix-dry-run (exit 1), left by --fix', () => {
    // A symlink (its target may be outside the repository), a second hard link (the other name
    // would change too), a read-only file: never written; so their findings carry no fix.
    const dir = `${R}/t${n++}`
    const bom = `${BOM}{"name":"p","description":"d","entry":"run.sh","class":"safe"}\n`
    makeTree(dir, {
      'outside/real.json': bom,
      'skills/sym/run.sh': { exec: '#!/bin/sh\n' },
      'skills/hard/skill.json': bom.replace('"p"', '"h"'),
      'skills/hard/run.sh': { exec: '#!/bin/sh\n' },
      'skills/ro/skill.json': bom.replace('"p"', '"r"'),
      'skills/ro/run.sh': { exec: '#!/bin/sh\n' },
    })
    symlinkSync('../../outside/real.json', `${dir}/skills/sym/skill.json`)
    linkSync(`${dir}/skills/hard/skill.json`, `${dir}/outside/other-name.json`)
    chmodSync(`${dir}/skills/ro/skill.json`, 0o444)
    const json = runCliSync(['lint', 'skills', '--format', 'json'], { cwd: dir })
    const doc = JSON.parse(json.stdout) as { files: { findings: { rule_id: string; fixable: boolean }[] }[] }
    const bomFindings = doc.files.flatMap((f) => f.findings).filter((x) => x.rule_id === 'practice/bom')
    assert.equal(bomFindings.length, 3)
    assert.ok(
      bomFindings.every((x) => !x.fixable),
      json.stdout,
    )
    const dry = runCliSync(['lint', 'skills', '--fix-dry-run'], { cwd: dir })
    assert.equal(dry.stdout, '')
    assert.equal(dry.code, 1)
    assert.equal(
      dry.stderr,
      [
        'skills/hard/skill.json: would not fix practice/bom: the file has 2 hard links, and ongrid-skill never writes through a link (the other names would change too)',
        'skills/ro/skill.json: would not fix practice/bom: the file is read-only (mode 0444), and ongrid-skill leaves it so',
        'skills/sym/skill.json: would not fix practice/bom: the file is a symlink, and ongrid-skill never writes through a link',
        'would fix 0 problems in 0 files; 3 fixes would not be applied (said above)',
        '',
      ].join('\n'),
    )
    const fix = runCliSync(['lint', 'skills', '--fix'], { cwd: dir })
    assert.match(fix.stderr, /^skills\/sym\/skill.json: not fixed practice\/bom: the file is a symlink/m)
    assert.match(fix.stderr, /^fixed 0 problems in 0 files; 3 fixes not applied \(said above\)$/m)
    assert.equal(read(`${dir}/outside/real.json`), bom)
    assert.equal(read(`${dir}/outside/other-name.json`), bom.replace('"p"', '"h"'))
    assert.equal(read(`${dir}/skills/ro/skill.json`), bom.replace('"p"', '"r"'))
    assert.equal(statSync(`${dir}/skills/ro/skill.json`).mode & 0o777, 0o444)
  })

  test('--fix-dry-run prints a diff git apply takes, writes nothing, exits as the findings left would', () => {
    const dir = tree()
    const r = runCliSync(['lint', 'skills', '--fix-dry-run'], { cwd: dir })
    assert.equal(read(`${dir}/skills/a/skill.json`), MANIFEST)
    assert.equal(statSync(`${dir}/skills/a/run.sh`).mode & 0o777, 0o640)
    assert.equal(r.stderr, 'would fix 2 problems in 2 files\n')
    assert.equal(
      r.stdout,
      [
        'diff --git a/skills/a/skill.json b/skills/a/skill.json',
        '--- a/skills/a/skill.json',
        '+++ b/skills/a/skill.json',
        '@@ -1,4 +1,4 @@',
        `-${BOM}{`,
        '+{',
        '   "Name": "disk_a",',
        '   "description": "Reports the free space of a filesystem, in bytes.",',
        '   "entry": "run.sh",',
        'diff --git a/skills/n/SKILL.md b/skills/n/SKILL.md',
        '--- a/skills/n/SKILL.md',
        '+++ b/skills/n/SKILL.md',
        '@@ -1,4 +1,4 @@',
        ' ---',
        '-name: Disk Report # t',
        '+name: disk_report # t',
        ' description: Reports disks.',
        ' ---',
        '',
      ].join('\n'),
    )
    // The BOM makes skill.json undecodable: an error is left after the first pass's fixes too.
    assert.equal(r.code, 1)
    execFileSync('git', ['init', '-q', '.'], { cwd: dir })
    execFileSync('git', ['apply'], { cwd: dir, input: r.stdoutBytes })
    assert.equal(
      read(`${dir}/skills/n/SKILL.md`),
      '---\nname: disk_report # t\ndescription: Reports disks.\n---\n',
    )
  })

  test('--fix-dry-run exits 1 while a fix is pending, even when the fix would leave nothing to report', () => {
    // A pack whose one finding is a CR at the end of its #! line: fixable, a warning only.
    const dir = `${R}/t${n++}`
    makeTree(dir, {
      'skills/a/skill.json':
        '{\n  "name": "disk_a",\n  "description": "Reports the free space of a filesystem, in bytes.",\n  "entry": "run.sh",\n  "class": "safe"\n}\n',
      'skills/a/run.sh': '#!/bin/sh\r\necho "{}"\n',
    })
    chmodSync(`${dir}/skills/a/run.sh`, 0o755)
    const pending = runCliSync(['lint', 'skills', '--fix-dry-run'], { cwd: dir })
    assert.match(pending.stdout, /^diff --git a\/skills\/a\/run\.sh/)
    assert.equal(pending.code, 1, pending.stderr)
    assert.equal(runCliSync(['lint', 'skills', '--fix'], { cwd: dir }).code, 0)
    const done = runCliSync(['lint', 'skills', '--fix-dry-run'], { cwd: dir })
    assert.deepEqual([done.stdout, done.code], ['', 0], done.stderr)
  })

  test('--fix-dry-run shows a mode fix as git mode lines', () => {
    const dir = `${R}/t${n++}`
    makeTree(dir, {
      'skills/a/skill.json': '{"name": "a", "description": "d", "entry": "run.sh", "class": "safe"}',
      'skills/a/run.sh': '#!/bin/sh\necho "{}"\n',
    })
    chmodSync(`${dir}/skills/a/run.sh`, 0o644)
    const r = runCliSync(['lint', 'skills', '--fix-dry-run', '--fix-type', 'manager'], { cwd: dir })
    assert.equal(
      r.stdout,
      'diff --git a/skills/a/run.sh b/skills/a/run.sh\nold mode 100644\nnew mode 100755\n',
    )
    assert.equal(r.code, 1, 'a fix is pending')
  })

  test('--fix-type picks categories', () => {
    const dir = tree()
    const r = runCliSync(['lint', 'skills', '--fix', '--fix-type', 'manager'], { cwd: dir })
    // manager/parse and the entry's fixes are the manager's; the BOM, case and class are best practice.
    assert.equal(read(`${dir}/skills/a/skill.json`), MANIFEST)
    assert.equal(statSync(`${dir}/skills/a/run.sh`).mode & 0o777, 0o640)
    assert.equal(
      read(`${dir}/skills/n/SKILL.md`),
      '---\nname: disk_report # t\ndescription: Reports disks.\n---\n',
    )
    assert.equal(r.code, 1)
    const all = runCliSync(['lint', 'skills', '--fix', '--fix-type', 'best-practice,manager'], { cwd: dir })
    assert.equal(all.code, 0)
    assert.equal(read(`${dir}/skills/a/skill.json`), FIXED)
  })

  test('a file changed during the run is left alone, said on stderr', () => {
    const dir = tree()
    // Modified after the run began, as far as its times say.
    const later = new Date(Date.now() + 3_600_000)
    utimesSync(`${dir}/skills/n/SKILL.md`, later, later)
    const r = runCliSync(['lint', 'skills/n', '--fix'], { cwd: dir })
    assert.equal(
      r.stderr,
      'skills/n/SKILL.md: changed during the run: left alone\nfixed 0 problems in 0 files\n',
    )
    assert.equal(
      read(`${dir}/skills/n/SKILL.md`),
      '---\nname: Disk Report # t\ndescription: Reports disks.\n---\n',
    )
  })

  test('bad flag combinations: one line, exit 2', () => {
    const dir = tree()
    for (const [args, line] of [
      [['--fix', '--fix-dry-run'], 'ongrid-skill: --fix and --fix-dry-run: give one'],
      [['--fix-type', 'manager'], 'ongrid-skill: --fix-type: give --fix or --fix-dry-run with it'],
      [
        ['--fix', '--fix-type', 'best-practise'],
        'ongrid-skill: --fix-type best-practise: expected manager, best-practice, tests',
      ],
      [['--fix-dry-run', '--format', 'json'], 'ongrid-skill: --fix-dry-run prints a diff, not --format json'],
    ] as const) {
      const r = runCliSync(['lint', 'skills', ...args], { cwd: dir })
      assert.equal(r.code, 2, args.join(' '))
      assert.equal(r.stderr.split('\n')[0], line)
      // With --format json a failure is also one JSON document on stdout.
      if ((args as readonly string[]).includes('json')) assert.equal(JSON.parse(r.stdout).ok, false)
      else assert.equal(r.stdout, '')
    }
    assert.equal(read(`${dir}/skills/a/skill.json`), MANIFEST)
  })
})
