import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { shellcheckSkip } from '../helpers/shellcheck.js'
import { tempRoot } from '../helpers/tree.js'
import { initCli } from './init-helpers.js'

// init keeps ShellCheck's verdict on a new pack's shell entry where lint keeps it (entry/shellcheck,
// this user's cache): the pack's first lint reads it instead of waiting for ShellCheck.
const { root, cleanup } = tempRoot('ongrid-init-shellcheck-')
after(() => cleanup())

const DESCRIPTION = 'Checks whether a TCP port is open on a host'

/** A pack of the template in a dir of its own, made with a cache dir of its own. */
async function made(template: string): Promise<{ parent: string; xdg: string; kept: string }> {
  const parent = join(root, template)
  const xdg = join(root, `${template}-cache`)
  mkdirSync(parent)
  mkdirSync(xdg, { mode: 0o700 })
  const r = await initCli(['init', 'check_port', '-y', '-q', '-t', template, '-d', DESCRIPTION], {
    cwd: parent,
    env: { XDG_CACHE_HOME: xdg },
  })
  assert.equal(r.code, 0, r.stderr)
  return { parent, xdg, kept: join(xdg, 'ongrid-skill', 'shellcheck') }
}

const lintJson = (parent: string, xdg: string) =>
  initCli(['lint', 'check-port', '--format', 'json'], { cwd: parent, env: { XDG_CACHE_HOME: xdg } })

describe('init: ShellCheck’s verdict on a shell entry, kept for the first lint', {
  skip: shellcheckSkip(),
}, () => {
  test('bash: init keeps one; the first lint reads it and reports what a lint without it reports', async () => {
    const { parent, xdg, kept } = await made('bash')
    const names = readdirSync(kept)
    assert.equal(names.length, 1, 'init kept no ShellCheck result')
    const at = statSync(join(kept, names[0] as string)).mtimeMs
    const first = await lintJson(parent, xdg)
    // Read, not made again.
    assert.deepEqual(readdirSync(kept), names)
    assert.equal(statSync(join(kept, names[0] as string)).mtimeMs, at)
    const fresh = join(root, 'fresh-cache')
    mkdirSync(fresh, { mode: 0o700 })
    const alone = await lintJson(parent, fresh)
    assert.equal(first.code, alone.code, first.stderr)
    assert.equal(first.stdout, alone.stdout)
  })

  test('python: an entry that is no shell script: ShellCheck does not run, nothing is kept', async () => {
    const { kept } = await made('python')
    assert.equal(existsSync(kept), false)
  })
})
