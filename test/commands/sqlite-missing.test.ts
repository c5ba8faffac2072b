import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { runCliSync } from '../helpers/cli.js'
import { ECHO, makeTree, manifest, tempRoot } from '../helpers/tree.js'

/**
 * A Node without `node:sqlite` (older than 22.13, or built without it), made here by a preload
 * that hides the module: the audit store is said to need a newer Node in one line, and `run`
 * still runs the skill.
 */
const T = tempRoot('ongrid-nosqlite-')
after(T.cleanup)
const HIDE = join(T.root, 'hide-sqlite.cjs')
const LINE = (version: string) =>
  `SQLite needs Node 22.13 or later (node:sqlite); this is Node ${version}: upgrade Node, or use the single executable`

before(() => {
  writeFileSync(
    HIDE,
    `const get = process.getBuiltinModule
process.getBuiltinModule = (id) => (id === 'node:sqlite' || id === 'sqlite' ? undefined : get(id))
`,
  )
  makeTree(T.root, {
    'skills/echo/skill.json': manifest({ name: 'echo', entry: 'run.sh' }),
    'skills/echo/run.sh': ECHO,
  })
  writeFileSync(join(T.root, 'audit.db'), '')
})

const cli = (args: string[]) =>
  runCliSync(args, { node: ['--require', HIDE], env: { XDG_STATE_HOME: join(T.root, 'state') } })

describe('no node:sqlite: one line of ours, never a missing module', () => {
  test('run still runs the skill; the audit warning says what to do', () => {
    const r = cli(['run', join(T.root, 'skills/echo')])
    assert.equal(r.code, 0, r.stderr)
    assert.equal(
      r.stderr,
      `warning: audit store ${join(T.root, 'state/ongrid-skill/audit.db')}: ${LINE(process.version)} (run not recorded)\n`,
    )
    const j = JSON.parse(cli(['run', join(T.root, 'skills/echo'), '--json']).stdout)
    assert.equal(j.audit.reason, LINE(process.version))
  })

  test('audit tail over a SQLite file fails with that line', () => {
    const r = cli(['audit', 'tail', '--db', `sqlite:${join(T.root, 'audit.db')}`])
    assert.equal(r.code, 2)
    assert.equal(r.stderr, `ongrid-skill: ${LINE(process.version)}\n`)
  })
})
