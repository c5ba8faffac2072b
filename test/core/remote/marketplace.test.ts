import assert from 'node:assert/strict'
import { test } from 'node:test'
import { MAX_UPLOAD, minUploadRequest } from '../../../src/core/marketplace/archive.js'
import { bindingsOf, uploadRequest } from '../../../src/core/remote/marketplace.js'

test('the upload request: framed as the endpoint counts it, refused only when the whole request is past 64 MiB', async () => {
  const name = 'my-pack.tar.gz'
  const boundaryOf = (type: string) => /boundary=(.+)$/.exec(type)?.[1] ?? ''
  // 1000 bytes short of the limit: the framing fits in them.
  const fits = Buffer.alloc(MAX_UPLOAD - 1000, 7)
  const r = await uploadRequest(name, fits)
  const boundary = boundaryOf(r.type)
  assert.match(boundary, /^ongrid-skill-[0-9a-f]{24}$/)
  assert.equal(r.data.length, minUploadRequest(fits.length, name, boundary))
  assert.ok(r.data.length <= MAX_UPLOAD)
  const head = `--${boundary}\r\nContent-Disposition:form-data;name=file;filename=${name}\r\n\r\n`
  assert.equal(r.data.subarray(0, head.length).toString(), head)
  assert.ok(r.data.subarray(head.length, head.length + fits.length).equals(fits))
  assert.equal(r.data.subarray(head.length + fits.length).toString(), `\r\n--${boundary}--`)
  // The largest archive whose request fits, and one byte more.
  const framing = minUploadRequest(0, name, boundary)
  await assert.rejects(
    uploadRequest(name, Buffer.alloc(MAX_UPLOAD - framing + 1)),
    /bytes; the upload endpoint takes at most 64 MiB per request \(not sent\)/,
  )
  // Each request has a boundary of its own.
  assert.notEqual(boundaryOf((await uploadRequest(name, Buffer.alloc(1))).type), boundary)
})

test('bindings: SLOT=CREDENTIAL trimmed; a pair without both sides refused', () => {
  assert.deepEqual(bindingsOf([' aws = ops-aws ', 'tc=prod']), { aws: 'ops-aws', tc: 'prod' })
  assert.throws(() => bindingsOf(['=x']), /want SLOT=CREDENTIAL/)
  assert.throws(() => bindingsOf(['a= ']), /want SLOT=CREDENTIAL/)
})
