import assert from 'node:assert/strict'
import { readdirSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { gzipSync } from 'node:zlib'
import { parsePax } from '../../../src/core/go/archive/tar/reader.js'
import {
  EXTRACT_LIMITS,
  extractUpload,
  MAX_UPLOAD,
  minUploadRequest,
  safeJoin,
  tarEnding,
} from '../../../src/core/marketplace/archive.js'
import { tarBytes, writeZip } from '../../../src/core/marketplace/archive-write.js'
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

/** Runs `fn` with the extraction limits lowered, then puts them back. */
async function withLimits<T>(limits: { bytes?: number; entries?: number }, fn: () => Promise<T>): Promise<T> {
  const saved = { ...EXTRACT_LIMITS }
  Object.assign(EXTRACT_LIMITS, limits)
  try {
    return await fn()
  } finally {
    Object.assign(EXTRACT_LIMITS, saved)
  }
}

test('a gzip bomb stops at our limit with one line that says the limit is ours', async () => {
  // 8 MiB of zeros in one file: about 8 KiB compressed.
  const tar = await tarBytes('p', [entry('big.bin', '\0'.repeat(8 << 20))])
  const tgz = file('bomb.tgz', gzipSync(tar))
  const x = await withLimits({ bytes: 1 << 20 }, () => extractUpload(tgz))
  assert.ok(!x.ok)
  assert.equal(x.ours, true)
  assert.equal(x.exact, false)
  assert.match(
    x.error,
    /^the archive expands past 1 MiB; not extracted further \(a limit of ongrid-skill's, not the manager's/,
  )
  assert.doesNotMatch(x.error, /\n/)
  // Under the limit the same archive extracts (the manager's per-file cut does not apply: 8 MiB).
  const y = await extractUpload(tgz)
  assert.ok(y.ok)
  y.value.cleanup()
})

test('a zip whose entries expand past the limit, and too many entries, stop the same way', async () => {
  const zip = file('bomb.zip', await writeZip('p', [entry('a.bin', '\0'.repeat(3 << 20))]))
  const x = await withLimits({ bytes: 1 << 20 }, () => extractUpload(zip))
  assert.ok(!x.ok && x.ours === true)
  assert.match(x.error, /^the archive expands past 1 MiB/)
  const many = file('many.tar', await tarBytes('p', [entry('a.md'), entry('b.md'), entry('c.md')]))
  const y = await withLimits({ entries: 3 }, () => extractUpload(many))
  assert.ok(!y.ok && y.ours === true)
  assert.match(y.error, /^the archive holds more than 3 entries; not extracted further/)
})

test('past 64 MiB with its smallest multipart framing, an archive cannot be uploaded', async () => {
  const name = 'p.tar'
  const framing = minUploadRequest(0, name)
  const at = (size: number) => {
    const p = file(name, Buffer.alloc(0))
    truncateSync(p, size)
    return p
  }
  const refused = await extractUpload(at(MAX_UPLOAD - framing + 1), name)
  assert.deepEqual(refused, { ok: false, error: 'parse upload: http: request body too large', exact: true })
  // One byte less fits: all zeros, an empty tar (two zero blocks end it).
  const fits = await extractUpload(at(MAX_UPLOAD - framing), name)
  assert.ok(fits.ok)
  fits.value.cleanup()
})

test('Go’s tar reader stops at two zero blocks, and refuses a zero block before a header', async () => {
  const tar = await tarBytes('p', [entry('a.md')])
  const late = await tarBytes('q', [entry('late.md')])
  const body = tar.subarray(0, tar.length - 1024)
  const after = await extractUpload(file('end.tar', Buffer.concat([tar, late])))
  assert.ok(after.ok)
  assert.deepEqual(readdirSync(after.value.dest), ['p'])
  after.value.cleanup()
  const oneZero = Buffer.concat([body, Buffer.alloc(512), late])
  const bad = await extractUpload(file('zero.tar', oneZero))
  assert.deepEqual(bad, { ok: false, error: 'tar: archive/tar: invalid tar header', exact: true })
})

test('a header whose checksum is the signed sum is taken, as Go takes it', async () => {
  const tar = Buffer.from(await tarBytes('p', [entry('a.md', 'hi')]))
  // Two bytes of 0x80 in the unused prefix field: signed sum = unsigned sum - 512.
  tar[400] = 0x80
  tar[401] = 0x80
  let signed = 0
  for (let i = 0; i < 512; i++) signed += i >= 148 && i < 156 ? 32 : tar[i] > 127 ? tar[i] - 256 : tar[i]
  tar.write(`${signed.toString(8).padStart(6, '0')}\0 `, 148, 'latin1')
  const x = await extractUpload(file('signed.tar', tar))
  assert.ok(x.ok, x.ok ? '' : x.error)
  x.value.cleanup()
})

test('zip entries read as archive/zip reads them: header, method, sizes, checksum', async () => {
  const good = await writeZip('p', [entry('a.md', 'hello world, stored or not')])
  const z = async (patch: (b: Buffer) => void) => {
    const b = Buffer.from(good)
    patch(b)
    const x = await extractUpload(file('z.zip', b))
    if (x.ok) x.value.cleanup()
    return x.ok ? 'ok' : x.error
  }
  // The file entry's local header: the second one in the archive (after the folder's).
  const local = (b: Buffer) => b.indexOf(Buffer.from('PK\x03\x04', 'latin1'), 4)
  const central = (b: Buffer) => b.lastIndexOf(Buffer.from('PK\x01\x02', 'latin1'))
  assert.equal(await z(() => {}), 'ok')
  assert.equal(await z((b) => b.writeUInt32LE(0, local(b))), 'zip: not a valid zip file')
  assert.equal(
    await z((b) => {
      b.writeUInt16LE(99, local(b) + 8)
      b.writeUInt16LE(99, central(b) + 10)
    }),
    'zip: unsupported compression algorithm',
  )
  assert.equal(
    await z((b) => b.writeUInt32LE((b.readUInt32LE(central(b) + 16) ^ 1) >>> 0, central(b) + 16)),
    'zip: checksum error',
  )
  // The directory says one byte more than the data holds.
  assert.equal(
    await z((b) => b.writeUInt32LE(b.readUInt32LE(central(b) + 24) + 1, central(b) + 24)),
    'unexpected EOF',
  )
  // The end record's directory offset too large by 4 KiB: the base offset goes below 0 and with it
  // the entries' headers (Go's os.File.ReadAt error names the manager's temp file: ours).
  const eocd = (b: Buffer) => b.lastIndexOf(Buffer.from('PK\x05\x06', 'latin1'))
  assert.equal(
    await z((b) => b.writeUInt32LE(b.readUInt32LE(eocd(b) + 16) + 4096, eocd(b) + 16)),
    'readat ongrid-upload: negative offset',
  )
  // A directory header that does not read: the count no longer matches.
  assert.equal(await z((b) => b.writeUInt32LE(0, central(b))), 'open zip: zip: not a valid zip file')
})

test('headers as Go’s tar reader reads them: numeric fields, and no data after a dir header', async () => {
  const fix = (b: Buffer, at: number) => {
    // The header's unsigned checksum, written back as tar writes it.
    b.fill(0x20, at + 148, at + 156)
    let sum = 0
    for (let i = at; i < at + 512; i++) sum += b[i]
    b.write(`${sum.toString(8).padStart(6, '0')}\0 `, at + 148, 'latin1')
  }
  // A bad digit in the mtime field (tar-stream reads past it; Go refuses the header).
  const bad = Buffer.from(await tarBytes('p', [entry('a.md')]))
  bad[512 + 138] = 0x13
  fix(bad, 512)
  const x = await extractUpload(file('mtime.tar', bad))
  assert.deepEqual(x, { ok: false, error: 'tar: archive/tar: invalid tar header', exact: true })
  // A dir header whose size field says 512: Go reads no data for a dir, so the next block is a header.
  const dir = Buffer.from(await tarBytes('p', [entry('a.md', 'hi')]))
  dir.write('00000001000\0', 124, 'latin1')
  fix(dir, 0)
  const y = await extractUpload(file('dirsize.tar', dir))
  assert.ok(y.ok, y.ok ? '' : y.error)
  assert.deepEqual(readdirSync(join(y.value.root)), ['a.md'])
  y.value.cleanup()
})

test('a zip entry name holding a NUL byte: Go’s EINVAL from open or mkdir, never a crash', async () => {
  // yazl refuses such names: written with \x01 in their place, then the bytes put back.
  const nul = async (rel: string) =>
    Buffer.from(
      (await writeZip('p', [entry(rel)])).toString('latin1').replaceAll(rel, rel.replace('\x01', '\0')),
      'latin1',
    )
  const f = await extractUpload(file('nul.zip', await nul('x\x01y.md')))
  assert.ok(!f.ok)
  assert.match(f.error, /^open \/.*\/p\/x\0y\.md: invalid argument$/)
  const d = await extractUpload(file('nuldir.zip', await nul('d\x01e/y.md')))
  assert.ok(!d.ok)
  assert.match(d.error, /^mkdir \/.*\/p\/d\0e: invalid argument$/)
})

test('PAX records as Go’s parsePAX and mergePAX take them: a bad one is an invalid header', async () => {
  const good = await tarBytes('p', [entry(`${'n'.repeat(120)}.md`)])
  // tar-stream writes the long name as a PAX path record: `LEN path=…\n` in the block after an 'x' header.
  const at = good.indexOf(' path=')
  assert.ok(at > 0 && good[at - (at % 512) - 512 + 156] === 0x78)
  const damaged = (edit: (b: Buffer) => void) => {
    const b = Buffer.from(good)
    edit(b)
    return b
  }
  const bad = [
    damaged((b) => {
      b[at - 1] = 0 // the record's length ends in a NUL
    }),
    damaged((b) => {
      b[at + 1] = 0x3d // "=ath=…": an empty key
    }),
    damaged((b) => {
      b[at + 10] = 0 // a NUL in the path
    }),
  ]
  for (const [i, tar] of bad.entries()) {
    const x = await extractUpload(file(`pax${i}.tar`, tar))
    assert.ok(!x.ok, `case ${i}`)
    assert.equal(x.error, 'tar: archive/tar: invalid tar header', `case ${i}`)
  }
  const ok = await extractUpload(file('pax-good.tar', good))
  assert.ok(ok.ok)
  ok.value.cleanup()
  // The parser itself, record by record (Go's texts are all ErrHeader).
  assert.deepEqual(parsePax('11 path=ab\n'), new Map([['path', 'ab']]))
  assert.deepEqual(
    parsePax('+12 path=ab\n8 a=1=2\n'),
    new Map([
      ['path', 'ab'],
      ['a', '1=2'],
    ]),
  )
  for (const bad of ['11 path=ab', '4 a=\n', '12 path=ab\n', '11 pa\0h=b\n', 'x path=ab\n', '11 =ath=b\n'])
    assert.equal(parsePax(bad), null, JSON.stringify(bad))
})
