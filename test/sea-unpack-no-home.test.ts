import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { chmodSync, chownSync, lstatSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { REPO } from './helpers/cli.js'

/**
 * scripts/sea/unpack.cjs for a uid with no passwd entry (`docker --user 4242`): no home at all.
 * Root starts that uid (test/sea-unpack.test.ts has the rest, for any user).
 */
const UNPACK = join(REPO, 'scripts/sea/unpack.cjs')
const ROOT = process.getuid?.() === 0
const statOrNull = (p: string) => statSync(p, { throwIfNoEntry: false })
const theirs = (p: string) => {
  chownSync(p, 65534, 65534)
  chmodSync(p, 0o777)
}

describe('the single executable’s unpack dir, with no home', () => {
  // A node another uid may run: this one may be in root's home.
  const OTHERS_NODE = [process.execPath, '/usr/bin/node', '/usr/local/bin/node'].find((p) =>
    p.split('/').every((_, i, a) => i === 0 || (statOrNull(a.slice(0, i + 1).join('/'))?.mode ?? 0) & 0o001),
  )
  test('no home at all (a uid with no passwd entry): $TMPDIR/ongrid-skill-sea-<uid>, only when its own', {
    skip:
      (!ROOT && 'needs root, to be a uid with no passwd entry') ||
      (!OTHERS_NODE && 'no node another uid may run'),
  }, () => {
    // A temp dir as /tmp is (root's, sticky), one another uid can reach.
    const tmp = mkdtempSync(join(tmpdir(), 'ongrid-sea-tmp-'))
    after(() => rmSync(tmp, { recursive: true, force: true }))
    chmodSync(tmp, 0o1777)
    const script = `process.stdout.write(require(${JSON.stringify(UNPACK)}).seaBase(process.env))`
    const as4242 = () =>
      spawnSync(
        'setpriv',
        ['--reuid=4242', '--regid=4242', '--clear-groups', OTHERS_NODE as string, '-e', script],
        {
          env: { PATH: process.env.PATH, TMPDIR: tmp },
          encoding: 'utf8',
        },
      )
    // Another user (nobody) made that name first: refused, not used.
    mkdirSync(join(tmp, 'ongrid-skill-sea-4242'))
    theirs(join(tmp, 'ongrid-skill-sea-4242'))
    const planted = as4242()
    assert.notEqual(planted.status, 0)
    assert.match(planted.stderr, /ongrid-skill-sea-4242: owned by uid 65534, not by this user \(uid 4242\)/)
    rmSync(join(tmp, 'ongrid-skill-sea-4242'), { recursive: true })
    const r = as4242()
    assert.equal(r.status, 0, r.stderr)
    assert.equal(r.stdout, join(tmp, 'ongrid-skill-sea-4242'))
    assert.equal(lstatSync(r.stdout).uid, 4242)
    assert.equal(lstatSync(r.stdout).mode & 0o777, 0o700)
  })
})
