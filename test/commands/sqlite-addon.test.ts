import assert from 'node:assert/strict'
import { cpSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { REPO, runCliSync } from '../helpers/cli.js'
import { ECHO, makeTree, manifest, tempRoot } from '../helpers/tree.js'

/**
 * The package as a user installs it, but with better-sqlite3's addon never built (an install
 * with scripts off, or on a machine without a compiler): its JavaScript is there, its
 * build/Release is not. Every other dependency is the repository's own.
 */
const T = tempRoot('ongrid-addon-')
after(T.cleanup)
const PKG = join(T.root, 'pkg')
const LINE =
  `better-sqlite3's native addon cannot be loaded by Node ${process.version} (ABI ${process.versions.modules}):` +
  ' reinstall ongrid-skill, or run `npm rebuild better-sqlite3` where it is installed'

before(() => {
  for (const f of ['bin', 'dist', 'package.json', 'oclif.manifest.json']) {
    cpSync(join(REPO, f), join(PKG, f), { recursive: true })
  }
  const nm = join(PKG, 'node_modules')
  mkdirSync(nm)
  for (const name of readdirSync(join(REPO, 'node_modules'))) {
    if (name !== 'better-sqlite3') symlinkSync(join(REPO, 'node_modules', name), join(nm, name))
  }
  for (const f of ['package.json', 'lib']) {
    cpSync(join(REPO, 'node_modules/better-sqlite3', f), join(nm, 'better-sqlite3', f), { recursive: true })
  }
  makeTree(T.root, {
    'skills/echo/skill.json': manifest({ name: 'echo', entry: 'run.sh' }),
    'skills/echo/run.sh': ECHO,
  })
  writeFileSync(join(T.root, 'audit.db'), '')
})

const cli = (args: string[]) =>
  runCliSync(args, { bin: join(PKG, 'bin/run.js'), env: { XDG_STATE_HOME: join(T.root, 'state') } })

describe('better-sqlite3 without its addon: one line of ours, never the bindings package’s text', () => {
  test('run still runs the skill; the audit warning says what to do', () => {
    const r = cli(['run', join(T.root, 'skills/echo')])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(
      r.stderr,
      `warning: audit store ${join(T.root, 'state/ongrid-skill/audit.db')}: ${LINE} (run not recorded)\n`,
    )
    const j = JSON.parse(cli(['run', join(T.root, 'skills/echo'), '--json']).stdout)
    assert.equal(j.audit.reason, LINE)
  })

  test('audit tail over a SQLite file fails with that line', () => {
    const r = cli(['audit', 'tail', '--db', `sqlite:${join(T.root, 'audit.db')}`])
    assert.equal(r.code, 2)
    assert.equal(r.stderr, `ongrid-skill: ${LINE}\n`)
    assert.doesNotMatch(r.stderr, /bindings file/)
  })
})
