import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { describe, test } from 'node:test'
import { UserError } from '../../../src/core/errors.js'
import { fromText } from '../../../src/core/go/gostring.js'
import {
  checkDocument,
  openTarget,
  signatureFailedHint,
  verifyDocument,
} from '../../../src/core/marketplace/check.js'
import { DEFAULT_TRUST } from '../../../src/core/marketplace/install.js'
import { MARKETPLACE_RULES, UNSIGNED_MESSAGE } from '../../../src/core/marketplace/rules.js'
import { SIGNATURE_MISMATCH } from '../../../src/core/marketplace/signature.js'
import { packFixtures, SKILL } from './fixture.js'

const { root, demo, sign, fresh } = packFixtures('ongrid-mp-check-')

const severityOf = new Map(MARKETPLACE_RULES.map((r) => [r.id, r.severity]))

describe('openTarget', () => {
  test('a pack dir is checked in place, its paths shown as they are', async () => {
    const dir = demo()
    const t = await openTarget(fromText(dir))
    assert.equal(t.display, dir)
    assert.equal(t.archive, false)
    assert.equal(t.root, dir)
    assert.equal(t.uploadError, null)
    assert.equal(t.show(fromText(join(dir, 'x'))), join(dir, 'x'))
    t.cleanup()
  })

  test('a missing path or a FIFO is one line naming it', async () => {
    await assert.rejects(openTarget(fromText(join(root, 'nope'))), (e: Error) => {
      assert.ok(e instanceof UserError)
      assert.match(e.message, /nope: no such file or directory$/)
      return true
    })
    const fifo = fresh('fifo')
    execFileSync('mkfifo', [fifo])
    await assert.rejects(openTarget(fromText(fifo)), /not a regular file or directory \(a FIFO or device\)/)
  })

  test('an archive is extracted, shown under its own name, and removed by cleanup', async () => {
    const dir = demo()
    const archive = `${fresh('a')}.tar.gz`
    execFileSync('tar', ['czf', archive, '-C', dirname(dir), basename(dir)])
    const t = await openTarget(fromText(archive))
    assert.equal(t.archive, true)
    assert.ok(t.root !== null)
    assert.equal(t.noWrapper, false)
    assert.ok(t.show(t.root).startsWith(archive))
    t.cleanup()
  })
})

describe('checkDocument', () => {
  test('each finding at its rule’s severity, from the rule list', async () => {
    const t = await openTarget(fromText(demo('Not_Strict')))
    const doc = await checkDocument(t, DEFAULT_TRUST)
    assert.ok(doc.findings.length > 0)
    for (const f of doc.findings) assert.equal(f.severity, severityOf.get(f.ruleId), f.ruleId)
    assert.deepEqual(
      doc.findings.map((f) => f.ruleId),
      ['marketplace/unsigned', 'marketplace-practice/id-form'],
    )
    assert.equal(doc.findings[0].message, UNSIGNED_MESSAGE)
    assert.match(doc.findings[1].message, /^not the manager’s verdict: pack id "Not_Strict"/)
  })

  test('an archive without one top-level folder: marketplace-practice/no-wrapper, a listed rule', async () => {
    const dir = demo()
    const archive = `${fresh('flat')}.tar.gz`
    execFileSync('tar', ['czf', archive, '-C', dir, '.claude-plugin', 'skills'])
    const t = await openTarget(fromText(archive))
    try {
      assert.equal(t.noWrapper, true)
      const doc = await checkDocument(t, DEFAULT_TRUST)
      const f = doc.findings.find((x) => x.ruleId === 'marketplace-practice/no-wrapper')
      assert.ok(f, JSON.stringify(doc.findings))
      assert.equal(f.severity, 'warn')
      assert.equal(f.file, archive)
    } finally {
      t.cleanup()
    }
  })

  test('a refused upload: marketplace/install-refused with the endpoint’s text', async () => {
    const archive = `${fresh('bad')}.tar.gz`
    writeFileSync(archive, 'not gzip')
    const t = await openTarget(fromText(archive))
    const doc = await checkDocument(t, DEFAULT_TRUST)
    assert.equal(doc.install?.ok, false)
    assert.deepEqual(
      doc.findings.map((f) => [f.ruleId, f.severity, f.file]),
      [['marketplace/install-refused', 'error', archive]],
    )
    assert.match(doc.findings[0].message, /^invalid argument\n/)
  })
})

describe('verifyDocument', () => {
  test('a refused upload: the same finding as check’s, marked when the text is not the manager’s', async () => {
    const archive = `${fresh('inexact')}.tar.gz`
    // A gzip header, then a deflate block of a type that does not exist: zlib's words, not Go's.
    writeFileSync(archive, Buffer.from('1f8b08000000000000030000ffffffffffffffff', 'hex').fill(0xff, 10))
    const t = await openTarget(fromText(archive))
    assert.equal(t.uploadError?.exact, false)
    const verified = verifyDocument(t, '', 'default', false)
    assert.equal(verified.failed, true)
    const checked = await checkDocument(t, DEFAULT_TRUST)
    assert.deepEqual(verified.doc.findings, checked.findings)
    assert.deepEqual(verified.doc.install, checked.install)
    assert.match(
      verified.doc.findings[0].message,
      /^invalid argument\ngzip: .* \(not the manager’s exact text\)$/,
    )
  })

  test('unsigned: info, or an error that fails with --require-signed; the one message', async () => {
    const t = await openTarget(fromText(demo()))
    const loose = verifyDocument(t, '', 'default', false)
    assert.equal(loose.failed, false)
    assert.deepEqual(
      loose.doc.findings.map((f) => [f.ruleId, f.severity, f.message]),
      [['marketplace/unsigned', 'info', UNSIGNED_MESSAGE]],
    )
    const strict = verifyDocument(t, '', 'flag', true)
    assert.equal(strict.failed, true)
    assert.deepEqual(
      strict.doc.findings.map((f) => [f.ruleId, f.severity]),
      [['marketplace/unsigned', 'error']],
    )
    assert.deepEqual(strict.doc.trust, { pinnedKey: false, from: { pinnedKey: 'flag' } })
  })

  test('verified: no finding; tampered: signature-failed as an error, with what to do', async () => {
    const dir = demo()
    sign(dir)
    const t = await openTarget(fromText(dir))
    const ok = verifyDocument(t, '', 'default', true)
    assert.equal(ok.failed, false)
    assert.equal(ok.doc.signature?.state, 'verified')
    assert.deepEqual(ok.doc.findings, [])
    writeFileSync(join(dir, 'skills/hello/SKILL.md'), `${SKILL}changed\n`)
    const bad = verifyDocument(t, '', 'default', false)
    assert.equal(bad.failed, true)
    assert.deepEqual(bad.doc.findings, [
      {
        ruleId: 'marketplace/signature-failed',
        severity: 'error',
        file: dir,
        message: SIGNATURE_MISMATCH,
        hint: signatureFailedHint(SIGNATURE_MISMATCH),
      },
    ])
    // check reports the same failure at the rule's severity: the manager installs it anyway.
    const doc = await checkDocument(t, DEFAULT_TRUST)
    const f = doc.findings.find((x) => x.ruleId === 'marketplace/signature-failed')
    assert.equal(f?.severity, 'warn')
  })
})
