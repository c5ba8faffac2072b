import assert from 'node:assert/strict'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { caseFiles, caseLines, loadCaseFile, parseCaseFile } from '../../../src/core/testcases/cases.js'
import { makeTree, tempRoot } from '../../helpers/tree.js'

let R = ''
let cleanup = () => {}
before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-cases-'))
})
after(() => cleanup())

const problems = (text: string) =>
  parseCaseFile(join(R, 'x.json'), text).problems.map((p) => `${p.pointer} ${p.message}`)

describe('case files', () => {
  test('a file holds one case or an array of cases', () => {
    const one = parseCaseFile('/p/tests/a.json', '{"name":"a","args":{"x":1},"expect":{"ok":true}}')
    assert.deepEqual(one.problems, [])
    assert.equal(one.cases.length, 1)
    assert.equal(one.cases[0].index, null)
    assert.equal(one.cases[0].args, '{"x":1}')
    const many = parseCaseFile(
      '/p/tests/a.json',
      '[{"name":"a","expect":{"ok":true}},{"name":"b","expect":{"ok":false}}]',
    )
    assert.deepEqual(
      many.cases.map((c) => [c.name, c.index]),
      [
        ['a', 0],
        ['b', 1],
      ],
    )
  })

  test('each case knows the line it starts on', () => {
    const text =
      '[\n  {"name": "a,[{", "expect": {"ok": true}},\n\n  {"name": "b\\"]", "expect": {"ok": true}}, {"name": "c", "expect": {"ok": true}}\n]\n'
    assert.deepEqual(
      parseCaseFile('/p/tests/t.json', text).cases.map((c) => [c.name, c.line]),
      [
        ['a,[{', 2],
        ['b"]', 4],
        ['c', 4],
      ],
    )
    assert.deepEqual(
      parseCaseFile('/p/tests/t.json', '\n\n {"name": "one", "expect": {"ok": true}}').cases[0].line,
      3,
    )
    assert.deepEqual(caseLines('[]', true), [])
    assert.deepEqual(caseLines('[1,\n2,\n\n3]', true), [1, 2, 4])
  })

  test('no args: null, so the executor sends {}', () => {
    assert.equal(parseCaseFile('/p/a.json', '{"name":"a","expect":{"ok":true}}').cases[0].args, null)
  })

  test('shape problems name the key', () => {
    assert.deepEqual(problems('{"name":"a","expect":{"ok":true},"argz":{}}'), [
      '/argz unknown key "argz" (known: name, args, args_file, env, timeout, expect, snapshot)',
    ])
    assert.match(
      problems('[{"name":"a","expect":{"okay":true}}]')[0],
      /^\/0\/expect\/okay unknown key "okay" in expect/,
    )
    assert.deepEqual(problems('{"expect":{"ok":true}}'), ['/name `name` must be a non-empty string'])
    assert.match(
      problems('{"name":"a","args":[1],"expect":{"ok":true}}')[0],
      /^\/args `args` must be a JSON object/,
    )
    assert.match(problems('{"name":"a","timeout":"5 s","expect":{"ok":true}}')[0], /^\/timeout .*Go duration/)
    assert.match(problems('{"name":"a","timeout":"-1s","expect":{"ok":true}}')[0], /^\/timeout/)
    assert.match(problems('{"name":"a","env":{"A":1},"expect":{"ok":true}}')[0], /^\/env\/A /)
    assert.match(
      problems('{"name":"a","expect":{"error":{"match":"("}}}')[0],
      /^\/expect\/error\/match not a regular expression/,
    )
    assert.match(problems('{"name":"a","expect":{"error":5}}')[0], /^\/expect\/error /)
    assert.match(problems('{"name":"a","expect":{"max_duration_ms":0}}')[0], /max_duration_ms/)
    assert.match(problems('{"name":"a","expect":{"ok":true,"error":"x"}}')[0], /contradicts/)
    assert.match(problems('{"name":"a","expect":{}}')[0], /asserts nothing/)
    assert.match(problems('{"name":"a"}')[0], /needs `expect`/)
    assert.match(problems('[1]')[0], /^\/0 a case must be a JSON object/)
    assert.match(problems('{"name":')[0], /^ not JSON: /)
    assert.match(
      problems('[{"name":"a","expect":{"ok":true}},{"name":"a","expect":{"ok":true}}]')[0],
      /^\/1\/name .* more than once/,
    )
  })

  test('a snapshot case needs no expect', () => {
    assert.deepEqual(problems('{"name":"a","snapshot":true}'), [])
  })

  test("args_file is read relative to the case file; tests/*.json sorted, evals.json (eval's) left out", () => {
    makeTree(R, {
      'p/tests/b.json': '{"name":"b","args_file":"args/b.json","expect":{"ok":true}}',
      'p/tests/a.json': '{"name":"a","args_file":"missing.json","expect":{"ok":true}}',
      'p/tests/args/b.json': '{"k":"v"}',
      'p/tests/notes.txt': 'x',
      'p/tests/evals.json': '{"cases":[]}',
    })
    const files = caseFiles(join(R, 'p'))
    assert.deepEqual(
      files.map((f) => f.slice(R.length)),
      ['/p/tests/a.json', '/p/tests/b.json'],
    )
    assert.match(
      loadCaseFile(files[0]).problems[0].message,
      /cannot read missing.json: no such file or directory/,
    )
    assert.equal(loadCaseFile(files[1]).cases[0].args, '{"k":"v"}')
    assert.deepEqual(caseFiles(join(R, 'nope')), [])
  })

  test('a case file or an args_file whose real path is outside the pack is not read', () => {
    makeTree(R, {
      'secret.env': 'TOKEN=hunter2',
      'q/tests/out.json': { link: '../../secret.env' },
      'q/tests/env.json': { link: '/proc/self/environ' },
      'q/tests/arg.json': '{"name":"a","args_file":"../../secret.env","expect":{"ok":true}}',
      'q/tests/abs.json': JSON.stringify({
        name: 'b',
        args_file: join(R, 'secret.env'),
        expect: { ok: true },
      }),
      // Inside the pack, through a link: read.
      'q/fixtures/in.json': '{"name":"in","args_file":"../fixtures/args.json","expect":{"ok":true}}',
      'q/fixtures/args.json': '{"k":1}',
      'q/tests/in.json': { link: '../fixtures/in.json' },
    })
    const at = (name: string) => loadCaseFile(join(R, 'q/tests', name))
    const real = join(R, 'secret.env')
    for (const name of ['out.json', 'env.json']) {
      const f = at(name)
      assert.equal(f.text, null)
      assert.equal(f.problems.length, 1)
      assert.match(f.problems[0].message, /^not read: its real path \/\S+ is outside the pack$/)
      assert.ok(!f.problems[0].message.includes('hunter2'))
    }
    assert.equal(at('out.json').problems[0].message, `not read: its real path ${real} is outside the pack`)
    assert.deepEqual(
      at('arg.json').problems.map((p) => `${p.pointer} ${p.message}`),
      [`/args_file not read: ../../secret.env's real path ${real} is outside the pack`],
    )
    assert.equal(at('arg.json').cases.length, 0)
    assert.match(at('abs.json').problems[0].message, /^not read: .*'s real path .* is outside the pack$/)
    const inside = at('in.json')
    assert.deepEqual(inside.problems, [])
    assert.equal(inside.cases[0].args, '{"k":1}')
  })

  test('a file that is not JSON: Go’s words and a position, never an excerpt of its bytes', () => {
    assert.deepEqual(problems('TOKEN=hunter2-and-more-secret'), [
      " not JSON: invalid character 'T' looking for beginning of value (line 1, column 1)",
    ])
    assert.deepEqual(problems('{"a":\n  \x1bsecret}'), [
      " not JSON: invalid character '\\x1b' looking for beginning of value (line 2, column 3)",
    ])
    assert.deepEqual(problems(''), [' not JSON: unexpected end of JSON input (line 1, column 1)'])
  })
})
