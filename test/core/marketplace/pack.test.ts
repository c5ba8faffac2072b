import assert from 'node:assert/strict'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { UserError } from '../../../src/core/errors.js'
import { fromText } from '../../../src/core/go/gostring.js'
import { type CheckDocument, checkDocument, openTarget } from '../../../src/core/marketplace/check.js'
import { DEFAULT_TRUST } from '../../../src/core/marketplace/install.js'
import {
  archiveName,
  checkPacked,
  DEFAULT_EXCLUDES,
  packEntries,
  packSource,
} from '../../../src/core/marketplace/pack.js'
import { makeTree } from '../../helpers/tree.js'
import { packFixtures, SKILL } from './fixture.js'

const { pack, demo, sign, fresh } = packFixtures('ongrid-mp-pack-')
const docOf = async (dir: string) => checkDocument(await openTarget(fromText(dir)), DEFAULT_TRUST)

function refusal(fn: () => unknown, re: RegExp): void {
  assert.throws(fn, (e: Error) => {
    assert.ok(e instanceof UserError, e.message)
    assert.equal(e.exitCode, 1)
    assert.match(e.message, re)
    return true
  })
}

describe('packSource', () => {
  test('a pack the manager accepts: its id, version and signature', async () => {
    assert.deepEqual(packSource(await docOf(demo())), {
      id: 'demo',
      version: '1.0.0',
      sig: (await docOf(demo())).signature,
    })
  })

  test('refused: by the manager, by an error of ours, by an id pack cannot name, by a failed signature', async () => {
    const refused = await docOf(pack({ 'x.txt': '' }))
    const upper = await docOf(demo('Upper'))
    const base = await docOf(demo())
    refusal(() => packSource(refused), /^the manager would refuse this pack: /)
    refusal(() => packSource({ ...base, install: null }), /^the manager would refuse this pack: no layout$/)
    const ours = {
      ...base,
      findings: [
        ...base.findings,
        {
          ruleId: 'marketplace-bug/id-dot',
          severity: 'error' as const,
          file: base.target.path,
          message: 'dot',
        },
      ],
    }
    refusal(() => packSource(ours), /^dot \(marketplace-bug\/id-dot\)$/)
    refusal(() => packSource(upper), /^pack id "Upper" is not of the form/)
    const signature = base.signature as NonNullable<CheckDocument['signature']>
    const failed = {
      ...base,
      signature: { ...signature, state: 'failed', error: 'ecdsa signature does not verify' },
    }
    refusal(() => packSource(failed), /^signature\.json does not verify \(ecdsa signature does not verify\)/)
  })
})

describe('packEntries', () => {
  test('the default excludes, --exclude globs and our temp files are left out and listed', () => {
    const dir = demo('demo', {
      '.git/HEAD': 'ref\n',
      'skills/hello/.DS_Store': '',
      'skills/hello/notes.md~': '',
      'testdata/x.json': '{}',
      'skills/hello/.SKILL.md.0123456789ab.ongrid-tmp': '',
    })
    const { entries, skipped } = packEntries(dir, [...DEFAULT_EXCLUDES, 'testdata/', '*~'], false)
    assert.deepEqual(skipped, [
      '.git/',
      'skills/hello/.DS_Store',
      'skills/hello/.SKILL.md.0123456789ab.ongrid-tmp',
      'skills/hello/notes.md~',
      'testdata/',
    ])
    assert.deepEqual(
      entries.map((e) => e.rel),
      ['.claude-plugin', '.claude-plugin/plugin.json', 'skills', 'skills/hello', 'skills/hello/SKILL.md'],
    )
  })

  test('a signed pack keeps every signed file', () => {
    const dir = demo()
    sign(dir)
    assert.equal(packEntries(dir, ['SKILL.md'], false).skipped.length, 1)
    refusal(
      () => packEntries(dir, ['SKILL.md'], true),
      /^the excludes leave out signed files \(skills\/hello\/SKILL\.md\): the archive would not verify/,
    )
  })
})

test('archiveName: the version only when it is a plain word', () => {
  assert.equal(archiveName('demo', '1.0.0', 'tar.gz'), 'demo-1.0.0.tar.gz')
  assert.equal(archiveName('demo', '1.0 beta', 'zip'), 'demo.zip')
  assert.equal(archiveName('demo', '', 'zip'), 'demo.zip')
})

test('checkPacked: an extraction that differs from what was packed is a bug of ours', async () => {
  const dir = demo()
  const { entries } = packEntries(dir, [], false)
  const sig = { state: 'unsigned', error: null, hash: null }
  await assert.rejects(
    checkPacked({ root: fromText(dir), descended: false }, entries, 'demo', sig),
    /no single top-level folder named after the pack id/,
  )
  const copy = join(fresh('c'), 'demo')
  mkdirSync(copy, { recursive: true })
  makeTree(copy, {
    '.claude-plugin/plugin.json': '{"id":"demo","version":"1.0.0"}',
    'skills/hello/SKILL.md': SKILL,
  })
  await checkPacked({ root: fromText(copy), descended: true }, entries, 'demo', sig)
  writeFileSync(join(copy, 'extra.md'), '')
  await assert.rejects(
    checkPacked({ root: fromText(copy), descended: true }, entries, 'demo', sig),
    /extracts differently: extra\.md appeared/,
  )
})
