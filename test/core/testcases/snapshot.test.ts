import assert from 'node:assert/strict'
import {
  chmodSync,
  chownSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { writeSnapshots } from '../../../src/core/testcases/snapshot.js'
import { tempRoot } from '../../helpers/tree.js'

let R = ''
let cleanup = () => {}
before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-snapshot-'))
})
after(() => cleanup())

function write(name: string, text: string): string {
  const file = join(R, name)
  writeFileSync(file, text)
  return file
}

const RESULT = { used: 10, tags: ['a', 'b'] }

describe('writeSnapshots: only the result changes, the rest of the file stays as the user wrote it', () => {
  test('formatting, numbers as written, other cases and keys kept; new text in the file’s style', () => {
    const text = `[
    {"name": "kept", "args": {"n": 1}, "expect": {"ok": true, "max_duration_ms": 10000000000000000001}},
    {
        "name": "new",
        "snapshot": true
    },
    {"name": "stale", "snapshot": true, "expect": {"result": {"old": 1}, "stderr_contains": "x"}},
    {
        "name": "no result yet",
        "snapshot": true,
        "expect": {
            "stderr_contains": "é"
        }
    }
]
`
    const file = write('a.json', text)
    writeSnapshots(file, text, [
      { index: 1, result: RESULT },
      { index: 2, result: RESULT },
      { index: 3, result: RESULT },
    ])
    assert.equal(
      readFileSync(file, 'utf8'),
      `[
    {"name": "kept", "args": {"n": 1}, "expect": {"ok": true, "max_duration_ms": 10000000000000000001}},
    {
        "name": "new",
        "snapshot": true,
        "expect": {
            "result": {
                "used": 10,
                "tags": [
                    "a",
                    "b"
                ]
            }
        }
    },
    {"name": "stale", "snapshot": true, "expect": {"result": {"used": 10, "tags": ["a", "b"]}, "stderr_contains": "x"}},
    {
        "name": "no result yet",
        "snapshot": true,
        "expect": {
            "stderr_contains": "é",
            "result": {
                "used": 10,
                "tags": [
                    "a",
                    "b"
                ]
            }
        }
    }
]
`,
    )
  })

  test('a stored result is replaced in place; a file of one case; CRLF and tabs kept', () => {
    const text =
      '{\r\n\t"name": "one",\r\n\t"snapshot": true,\r\n\t"expect": {\r\n\t\t"result": 1\r\n\t}\r\n}\r\n'
    const file = write('b.json', text)
    writeSnapshots(file, text, [{ index: null, result: { a: [1] } }])
    assert.equal(
      readFileSync(file, 'utf8'),
      '{\r\n\t"name": "one",\r\n\t"snapshot": true,\r\n\t"expect": {\r\n\t\t"result": {\r\n\t\t\t"a": [\r\n\t\t\t\t1\r\n\t\t\t]\r\n\t\t}\r\n\t}\r\n}\r\n',
    )
  })

  test('minified stays minified', () => {
    const text = '[{"name":"m","snapshot":true,"expect":{}},{"name":"n","snapshot":true}]'
    const file = write('c.json', text)
    writeSnapshots(file, text, [
      { index: 0, result: { k: 'v' } },
      { index: 1, result: [2] },
    ])
    assert.equal(
      readFileSync(file, 'utf8'),
      '[{"name":"m","snapshot":true,"expect":{"result":{"k":"v"}}},{"name":"n","snapshot":true,"expect":{"result":[2]}}]',
    )
  })

  test('a symlinked case file is written where it points; its mode is kept', () => {
    const text = '{"name":"l","snapshot":true}\n'
    const real = write('real.json', text)
    chmodSync(real, 0o640)
    const link = join(R, 'link.json')
    symlinkSync(real, link)
    writeSnapshots(link, text, [{ index: null, result: 3 }])
    assert.ok(lstatSync(link).isSymbolicLink())
    assert.equal(readFileSync(real, 'utf8'), '{"name":"l","snapshot":true,"expect":{"result":3}}\n')
    assert.equal(statSync(real).mode & 0o777, 0o640)
    assert.ok(readFileSync(link, 'utf8') === readFileSync(real, 'utf8'))
  })

  test('a file changed since the run read it is not written', () => {
    const text = '{"name":"c","snapshot":true}'
    const file = write('d.json', '{"name":"c","snapshot":true,"args":{"edited":1}}')
    assert.throws(
      () => writeSnapshots(file, text, [{ index: null, result: 1 }]),
      /d\.json: changed during the run; its snapshots were not written \(run --update again\)$/,
    )
    assert.equal(readFileSync(file, 'utf8'), '{"name":"c","snapshot":true,"args":{"edited":1}}')
  })

  test('a symlink planted at the old temp name (.NAME.PID.tmp) is not written through', () => {
    mkdirSync(join(R, 'planted'))
    const text = '{"name":"p","snapshot":true}\n'
    const file = join(R, 'planted', 'cases.json')
    writeFileSync(file, text)
    const victim = write('victim.txt', 'precious')
    symlinkSync(victim, join(R, 'planted', `.cases.json.${process.pid}.tmp`))
    writeSnapshots(file, text, [{ index: null, result: 1 }])
    assert.equal(readFileSync(victim, 'utf8'), 'precious')
    assert.equal(readFileSync(file, 'utf8'), '{"name":"p","snapshot":true,"expect":{"result":1}}\n')
    assert.ok(lstatSync(file).isFile())
    assert.deepEqual(readdirSync(join(R, 'planted')).sort(), [`.cases.json.${process.pid}.tmp`, 'cases.json'])
  })

  test('a hardlinked case file is updated through its inode: the other link sees the update', () => {
    const text = '{"name":"h","snapshot":true}'
    const file = write('h.json', text)
    linkSync(file, join(R, 'h-link.json'))
    writeSnapshots(file, text, [{ index: null, result: 2 }])
    assert.equal(
      readFileSync(join(R, 'h-link.json'), 'utf8'),
      '{"name":"h","snapshot":true,"expect":{"result":2}}',
    )
    assert.equal(statSync(file).nlink, 2)
  })

  test('owner and group are kept (root)', { skip: process.getuid?.() !== 0 && 'needs root' }, () => {
    const text = '{"name":"o","snapshot":true}'
    const file = write('o.json', text)
    chownSync(file, 65534, 65534)
    writeSnapshots(file, text, [{ index: null, result: 3 }])
    assert.deepEqual([statSync(file).uid, statSync(file).gid], [65534, 65534])
    assert.equal(readFileSync(file, 'utf8'), '{"name":"o","snapshot":true,"expect":{"result":3}}')
  })

  test('an update that would grow the file past 64 MiB (what a case file may hold) is not written', () => {
    const text = '{"name":"big","snapshot":true}'
    const file = write('big.json', text)
    assert.throws(
      () => writeSnapshots(file, text, [{ index: null, result: 'x'.repeat(64 * 1024 * 1024) }]),
      /big\.json: with its snapshots it would be larger than 64 MiB, more than a case file may hold; not written$/,
    )
    assert.equal(readFileSync(file, 'utf8'), text)
  })
})
