import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { fromText } from '../../../src/core/go/gostring.js'
import { parseTree } from '../../../src/core/json-tree.js'
import {
  applyBaseline,
  BaselineError,
  type BaselineFiles,
  baselineText,
  fingerprints,
  normalizeMessage,
  parseBaseline,
  pointerAt,
} from '../../../src/core/lint/baseline.js'
import { check, type FileReport } from '../../../src/core/lint/engine.js'
import { RULES } from '../../../src/core/lint/registry.js'
import type { Finding } from '../../../src/core/lint/types.js'
import { ECHO, makeTree, tempRoot } from '../../helpers/tree.js'

const T = tempRoot('ongrid-baseline-')
after(T.cleanup)
const R = T.root

/** A report of `file` (absolute) holding findings of `rule` with these messages, at no offset. */
function report(file: string, findings: [rule: string, message: string][], ignored = false): FileReport {
  return {
    kind: 'manifest',
    path: fromText(file),
    file,
    name: null,
    ignored,
    ctx: null,
    findings: findings.map(
      ([ruleId, message]): Finding => ({
        ruleId,
        severity: 'warn',
        file,
        line: 1,
        column: 1,
        offset: null,
        message,
      }),
    ),
  }
}

const files = (o: Record<string, Record<string, [string, string, number][]>>): BaselineFiles =>
  new Map(
    Object.entries(o).map(([f, rules]) => [
      f,
      new Map(
        Object.entries(rules).map(([r, es]) => [
          r,
          es.map(([at, message, count]) => ({ at, message, count })),
        ]),
      ),
    ]),
  )

const base = (o: Record<string, Record<string, [string, string, number][]>>) => ({
  path: join(R, '.ongrid-skill-baseline.json'),
  files: files(o),
})

describe('fingerprints', () => {
  test('positions in a message are not part of it', () => {
    assert.equal(
      normalizeMessage('yaml: line 12: mapping key "a" already defined at line 3'),
      'yaml: line N: mapping key "a" already defined at line N',
    )
    assert.equal(normalizeMessage('bad (line 2, column 17), offset 40'), 'bad (line N, column N), offset N')
    // Other numbers are what the finding says: kept.
    assert.equal(normalizeMessage('timeout 600s is over 300s'), 'timeout 600s is over 300s')
  })

  test('the JSON pointer of the innermost key or item holding an offset', () => {
    const text = '{"a": {"b/c": [1, {"d~": true}]}, "e": 2}'
    const tree = parseTree(fromText(text))
    assert.equal(pointerAt(tree, text.indexOf('true')), '/a/b~1c/1/d~0')
    assert.equal(pointerAt(tree, text.indexOf('"d~"')), '/a/b~1c/1/d~0')
    assert.equal(pointerAt(tree, text.indexOf('1,')), '/a/b~1c/0')
    assert.equal(pointerAt(tree, text.indexOf('"e"')), '/e')
    assert.equal(pointerAt(tree, 0), '')
  })

  test('a finding keeps its fingerprint when lines are inserted above it', async () => {
    const pack = (lead: string) =>
      `{\n${lead}  "name": "fp_skill",\n  "description": "short",\n  "entry": "run.sh",\n  "class": "safe",\n  "timeout_seconds": 10\n}\n`
    makeTree(R, { 'fp/a/skill.json': pack(''), 'fp/a/run.sh': ECHO })
    const before = (await check({ paths: [join(R, 'fp')].map(fromText), rules: RULES, set: 'all' })).files[0]
    writeFileSync(join(R, 'fp/a/skill.json'), pack('  "version": "2",\n\n\n'))
    const after = (await check({ paths: [join(R, 'fp')].map(fromText), rules: RULES, set: 'all' })).files[0]
    const short = (r: FileReport) => r.findings.findIndex((x) => x.ruleId === 'practice/description-length')
    assert.notEqual(before.findings[short(before)].line, after.findings[short(after)].line)
    assert.deepEqual(fingerprints(after)[short(after)], fingerprints(before)[short(before)])
    assert.equal(fingerprints(before)[short(before)].at, '/description')
  })
})

describe('fingerprints of a file that is not JSON', () => {
  test('no key path, and an end: the tree is read only from valid JSON', async () => {
    makeTree(R, { 'nj/a/skill.json': '{\n  "name": "nj",\n  "entry": "run.sh",\n}\n', 'nj/a/run.sh': ECHO })
    const r = (await check({ paths: [join(R, 'nj')].map(fromText), rules: RULES, set: 'all' })).files[0]
    assert.ok(r.findings.length > 0 && r.findings.every((f) => f.offset !== null))
    assert.deepEqual(
      fingerprints(r).map((f) => f.at),
      r.findings.map(() => ''),
    )
  })
})

describe('applyBaseline', () => {
  const a = join(R, 'skills/a/skill.json')
  const scope = [join(R, 'skills')]
  const never = new Set(['manager/parse'])
  /** The baseline over these reports, below skills/, manager/parse never baselined. */
  const apply = (baseline: Parameters<typeof applyBaseline>[0]['baseline'], reports: FileReport[]) =>
    applyBaseline({ baseline, reports, scope, never })

  test("paths in a message are written from the baseline's dir: a clone elsewhere matches", () => {
    const msg = (root: string) => `${root}/skills/a/run.sh is not executable`
    const b = base({ 'skills/a/skill.json': { 'r/x': [['', 'skills/a/run.sh is not executable', 1]] } })
    const out = apply(b, [report(a, [['r/x', msg(R)]])])
    assert.equal(out.baselined.size, 1)
    assert.equal(baselineText(out.updated), baselineText(b.files))
  })

  test('counts: as many findings of a fingerprint as recorded are baselined, the rest are new', () => {
    const reports = [
      report(a, [
        ['r/x', 'm'],
        ['r/x', 'm'],
        ['r/x', 'm'],
        ['r/y', 'other'],
      ]),
    ]
    const out = applyBaseline({
      baseline: base({ 'skills/a/skill.json': { 'r/x': [['', 'm', 2]] } }),
      reports,
      scope,
      never,
    })
    assert.deepEqual(
      reports[0].findings.map((f) => out.baselined.has(f)),
      [true, true, false, false],
    )
    assert.deepEqual(out.fixed, [])
  })

  test('an entry matching fewer findings than its count is fixed for the difference', () => {
    const reports = [report(a, [['r/x', 'm']])]
    const out = applyBaseline({
      baseline: base({ 'skills/a/skill.json': { 'r/x': [['', 'm', 3]] } }),
      reports,
      scope,
      never,
    })
    assert.equal(out.baselined.size, 1)
    assert.deepEqual(
      out.fixed.map((e) => [e.file, e.rule, e.count]),
      [['skills/a/skill.json', 'r/x', 2]],
    )
    assert.equal(
      baselineText(out.pruned),
      baselineText(files({ 'skills/a/skill.json': { 'r/x': [['', 'm', 1]] } })),
    )
  })

  test('a file gone from a PATH checked is fixed; a file outside the PATHs is kept as it is', () => {
    const b = base({
      'skills/gone/skill.json': { 'r/x': [['', 'm', 1]] },
      'other/skill.json': { 'r/x': [['', 'm', 1]] },
    })
    const out = apply(b, [])
    assert.deepEqual(
      out.fixed.map((e) => e.file),
      ['skills/gone/skill.json'],
    )
    const kept = baselineText(files({ 'other/skill.json': { 'r/x': [['', 'm', 1]] } }))
    assert.equal(baselineText(out.pruned), kept)
    assert.equal(baselineText(out.updated), kept)
  })

  test("the manager's verdict is never baselined, nor recorded", () => {
    const reports = [
      report(a, [
        ['manager/parse', 'bad'],
        ['r/x', 'm'],
      ]),
    ]
    const out = applyBaseline({
      baseline: base({ 'skills/a/skill.json': { 'manager/parse': [['', 'bad', 1]] } }),
      reports,
      scope,
      never,
    })
    assert.equal(out.baselined.size, 0)
    assert.equal(
      baselineText(out.updated),
      baselineText(files({ 'skills/a/skill.json': { 'r/x': [['', 'm', 1]] } })),
    )
  })

  test('entries of rules that did not check a file are neither fixed nor pruned; update only adds', () => {
    // manager/parse: r/z needed the decode and did not check the file; r/x and r/y did.
    const b = base({ 'skills/a/skill.json': { 'r/x': [['', 'm', 2]], 'r/z': [['', 'z', 1]] } })
    const refused = report(a, [
      ['manager/parse', 'bad'],
      ['r/x', 'm'],
      ['r/x', 'm'],
      ['r/x', 'm'],
      ['r/y', 'y'],
    ])
    refused.unchecked = { ids: new Set(['r/z']), subIds: [] }
    const out = apply(b, [refused])
    assert.deepEqual(out.fixed, [])
    assert.equal(baselineText(out.pruned), baselineText(b.files))
    assert.equal(
      baselineText(out.updated),
      baselineText(
        files({
          'skills/a/skill.json': { 'r/x': [['', 'm', 3]], 'r/y': [['', 'y', 1]], 'r/z': [['', 'z', 1]] },
        }),
      ),
    )
  })

  test('a file the manager refuses: entries of the rules that checked it are fixed when not found', () => {
    const b = base({ 'skills/a/skill.json': { 'r/x': [['', 'm', 2]], 'r/z': [['', 'z', 1]] } })
    const refused = report(a, [
      ['manager/parse', 'bad'],
      ['r/x', 'm'],
    ])
    refused.unchecked = { ids: new Set(), subIds: [] }
    const out = apply(b, [refused])
    assert.deepEqual(
      out.fixed.map((e) => [e.rule, e.message, e.count]),
      [
        ['r/x', 'm', 1],
        ['r/z', 'z', 1],
      ],
    )
    assert.equal(
      baselineText(out.pruned),
      baselineText(files({ 'skills/a/skill.json': { 'r/x': [['', 'm', 1]] } })),
    )
  })

  test("a rule that did not check a pack's skill.json did not check its case files either", () => {
    const b = base({
      'skills/a/tests/t.json': { 'tests/args-schema': [['', 'c', 1]], 'tests/shape': [['', 's', 1]] },
    })
    const refused = report(a, [['manager/parse', 'bad']])
    refused.unchecked = { ids: new Set(['tests/args-schema']), subIds: [] }
    const out = apply(b, [refused])
    assert.deepEqual(
      out.fixed.map((e) => [e.file, e.rule]),
      [['skills/a/tests/t.json', 'tests/shape']],
    )
  })

  test('ignored files are neither matched nor recorded', () => {
    const out = apply(base({}), [report(a, [['r/x', 'm']], true)])
    assert.equal(baselineText(out.updated), baselineText(new Map()))
  })

  test('update gives the current findings, the same text for the same findings in any order', () => {
    const one = apply(base({}), [
      report(a, [
        ['r/y', 'b'],
        ['r/x', 'm'],
        ['r/x', 'a'],
        ['r/x', 'm'],
      ]),
    ])
    const two = apply(base({}), [
      report(a, [
        ['r/x', 'm'],
        ['r/x', 'a'],
        ['r/x', 'm'],
        ['r/y', 'b'],
      ]),
    ])
    const text = baselineText(one.updated)
    assert.equal(text, baselineText(two.updated))
    assert.deepEqual(JSON.parse(text), {
      version: 1,
      files: {
        'skills/a/skill.json': {
          'r/x': [
            { at: '', message: 'a', count: 1 },
            { at: '', message: 'm', count: 2 },
          ],
          'r/y': [{ at: '', message: 'b', count: 1 }],
        },
      },
    })
    // Read back, it baselines every finding it was written from.
    const again = apply({ path: join(R, '.ongrid-skill-baseline.json'), ...parseBaseline(text, 'b') }, [
      report(a, [
        ['r/y', 'b'],
        ['r/x', 'm'],
        ['r/x', 'a'],
        ['r/x', 'm'],
      ]),
    ])
    assert.equal(again.baselined.size, 4)
    assert.equal(baselineText(again.updated), text)
  })
})

describe('parseBaseline', () => {
  const bad: [string, RegExp][] = [
    ['[]', /^baseline b: expected a JSON object$/],
    ['{"version": 2, "files": {}}', /^baseline b: version: expected 1, not 2$/],
    ['{"files": {}}', /^baseline b: version: expected 1, not nothing$/],
    ['{"version": 1}', /^baseline b: files: expected an object$/],
    ['{"version": 1, "files": {}, "extra": 1}', /unknown key "extra"/],
    ['{"version": 1, "files": {"/abs": {}}}', /files\["\/abs"\]: expected a \/-separated path/],
    ['{"version": 1, "files": {"a": {"r": {}}}}', /files\["a"\]\["r"\]: expected an array/],
    [
      '{"version": 1, "files": {"a": {"r": [{"at": "", "message": "m", "count": 0}]}}}',
      /\[0\]\.count: expected a whole number ≥ 1/,
    ],
    [
      '{"version": 1, "files": {"a": {"r": [{"at": 1, "message": "m", "count": 1}]}}}',
      /\[0\]\.at: expected a string/,
    ],
    [
      '{"version": 1, "files": {"a": {"r": [{"at": "", "message": "m", "count": 1, "line": 3}]}}}',
      /unknown key "line"/,
    ],
    ['{"version": 1,', /^baseline b: not JSON: unexpected end of JSON input \(line 1, column 14\)$/],
  ]
  for (const [text, want] of bad) {
    test(`refused: ${text}`, () => {
      assert.throws(
        () => parseBaseline(text, 'b'),
        (e: unknown) =>
          e instanceof BaselineError && e.exitCode === 2 && want.test(e.message) && !e.message.includes('\n'),
      )
    })
  }
  test('$schema is kept', () => {
    const p = parseBaseline('{"$schema": "x.json", "version": 1, "files": {}}', 'b')
    assert.equal(p.schema, 'x.json')
    assert.equal(
      baselineText(p.files, p.schema),
      '{\n  "$schema": "x.json",\n  "version": 1,\n  "files": {}\n}\n',
    )
  })
})
