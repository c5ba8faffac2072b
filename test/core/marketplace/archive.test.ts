import assert from 'node:assert/strict'
import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { gzipSync } from 'node:zlib'
import { extractUpload, safeJoin, tarEnding } from '../../../src/core/marketplace/archive.js'
import { tarBytes } from '../../../src/core/marketplace/archive-write.js'
import { tempRoot } from '../../helpers/tree.js'

const { root, cleanup } = tempRoot('ongrid-mp-arch-')
after(cleanup)
let n = 0
function file(name: string, bytes: Buffer): string {
  const p = join(root, `${n++}-${name}`)
  writeFileSync(p, bytes)
  return p
}
const entry = (rel: string, data = 'x', mode = 0o644) => ({ rel, dir: false, mode, data: Buffer.from(data) })

test('safeJoin: refused only when Rel is .. or starts with ../', () => {
  assert.equal(safeJoin('/d', '/abs/x.md'), '/d/abs/x.md')
  assert.equal(safeJoin('/d', './a/./b'), '/d/a/b')
  assert.equal(safeJoin('/d', '..hidden/x'), '/d/..hidden/x')
  assert.equal(safeJoin('/d', 'a/../../x'), null)
})

test('a name from a PAX record is UTF-8 bytes, as Go keeps it', async () => {
  const x = await extractUpload(
    file('p.tar', await tarBytes('p', [entry(Buffer.from('é.md').toString('latin1'))])),
  )
  assert.ok(x.ok)
  try {
    assert.deepEqual(readdirSync(Buffer.from(x.value.root, 'latin1'), { encoding: 'buffer' }), [
      Buffer.from('é.md'),
    ])
  } finally {
    x.value.cleanup()
  }
})

test('a file where a dir is needed: MkdirAll’s ENOTDIR on the path in the way', async () => {
  const tar = await tarBytes('p', [entry('a'), entry('a/b.md')])
  const x = await extractUpload(file('p.tar', tar))
  assert.ok(!x.ok)
  assert.match(x.error, /^mkdir .*\/p\/a: not a directory$/)
})

test('cut archives end as Go’s readers end them', async () => {
  const tar = await tarBytes('p', [entry('a.md', 'hello'), entry('b.md', 'world')])
  // Cut inside the second file's padding: Go's tar reader ends cleanly there.
  const padCut = tar.subarray(0, 512 * 4 + 100)
  assert.equal(tarEnding(padCut, false), null)
  const x = await extractUpload(file('p.tar', padCut))
  assert.ok(x.ok)
  x.value.cleanup()
  // Inside the data of a regular file: the endpoint's copy fails with a bare unexpected EOF.
  assert.equal(tarEnding(tar.subarray(0, 512 * 4 + 2), false), 'unexpected EOF')
  // Inside a header.
  assert.equal(tarEnding(tar.subarray(0, 512 + 100), false), 'tar: unexpected EOF')
  // A cut gzip whose data ends with the last byte of a regular file ('world' at 512 * 3 .. + 5):
  // flate returns those bytes with io.ErrUnexpectedEOF, so the file's copy fails; in a plain tar
  // the same end is padding cut short, a clean end.
  assert.equal(tarEnding(tar.subarray(0, 512 * 4 + 5), true), 'unexpected EOF')
  assert.equal(tarEnding(tar.subarray(0, 512 * 4 + 5), false), null)
  const gz = gzipSync(tar)
  const cut = async (b: Buffer) => {
    const r = await extractUpload(file('p.tgz', b))
    if (r.ok) r.value.cleanup()
    return r.ok ? 'ok' : r.error
  }
  assert.equal(await cut(Buffer.alloc(0)), 'gzip: EOF')
  assert.equal(await cut(gz.subarray(0, 5)), 'gzip: unexpected EOF')
  assert.equal(await cut(Buffer.from('not gzip at all')), 'gzip: gzip: invalid header')
  // Only the gzip trailer missing: Go's tar reader has its end marker and stops before it notices.
  assert.equal(await cut(gz.subarray(0, gz.length - 4)), 'ok')
  assert.equal(await cut(gz.subarray(0, gz.length - 20)), 'tar: unexpected EOF')
})
