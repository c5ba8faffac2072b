/**
 * What load-dirs and mcp say without --explain: a relative dir loads nothing and the manager's line
 * alone does not say why; an MCP server with no tool shows its client's user nothing at all.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { runCli, runCliSync } from '../helpers/cli.js'
import { ECHO, makeTree, manifest, tempRoot } from '../helpers/tree.js'

let R = ''
let cleanup = () => {}

before(() => {
  ;({ root: R, cleanup } = tempRoot())
  makeTree(R, {
    'skills/ok/skill.json': manifest({ name: 'ok', class: 'safe' }),
    'skills/ok/run.sh': ECHO,
    'risky/r/skill.json': manifest({ name: 'r', class: 'mutating' }),
    'risky/r/run.sh': ECHO,
    linked: { link: 'skills' },
  })
})
after(() => cleanup())

const loadDirs = (args: string[]) => runCliSync(['load-dirs', ...args], { cwd: R })

describe('load-dirs: a relative dir', () => {
  test('said on stderr without --explain', () => {
    const r = loadDirs(['skills'])
    assert.deepEqual(
      [r.code, r.stdout, r.stderr],
      [
        0,
        'skill loader: skip non-absolute dir "skills"\n',
        `  hint: the manager only takes absolute dirs: use "${R}/skills".\n0 registered, 1 skipped (1 non-absolute dir)\n`,
      ],
    )
  })
  test('said on stderr with --json too, the document unchanged', () => {
    const r = loadDirs(['skills', '--json'])
    assert.equal(r.stderr, `  hint: the manager only takes absolute dirs: use "${R}/skills".\n`)
    const doc = JSON.parse(r.stdout)
    assert.equal(doc.hints, undefined)
    assert.equal(doc.loader_lines[0].hints, undefined)
  })
  test('an absolute dir: nothing more said', () => {
    assert.equal(loadDirs([`${R}/skills`]).stderr, '1 registered, 0 skipped\n')
  })
})

describe('load-dirs --json --explain: the hints in the document', () => {
  test('each event carries its hints; hints not tied to a line are the document’s', () => {
    const r = loadDirs([`${R}/linked`, 'skills', `${R}/skills`, '--json', '--explain'])
    assert.equal(r.code, 0)
    assert.equal(r.stderr, '')
    const doc = JSON.parse(r.stdout)
    assert.deepEqual(
      doc.loader_lines.map((e: { kind: string; hints: string[] }) => [e.kind, e.hints]),
      [
        ['skip-non-absolute', [`the manager only takes absolute dirs: use "${R}/skills".`]],
        ['registered', []],
      ],
    )
    assert.equal(doc.hints.length, 1)
    assert.equal(doc.hints[0].path, `${R}/linked`)
    assert.match(doc.hints[0].hint, /is a symlink \(it points to .*\/skills\): the manager's filepath\.Walk/)
  })
})

describe('mcp serving no tool: why, on stderr', () => {
  const mcp = (args: string[]) => runCli(['mcp', ...args, '--no-audit'], { cwd: R, stdin: 'ignore' })

  test('a relative dir: the client starts the server elsewhere; give it absolute', async () => {
    for (const json of [[], ['--json']]) {
      const r = await mcp(['skills', ...json])
      assert.equal(r.code, 0, r.stderr)
      assert.ok(
        r.stderr.endsWith(
          `mcp: hint: "skills" is relative, and the manager skips a relative dir: a client (Claude Desktop, an IDE) starts this server in a working dir of its own, so give every dir absolute (from here, "${R}/skills")\n`,
        ),
        r.stderr,
      )
    }
  })
  test('nothing registered, or nothing of the classes served', async () => {
    let r = await mcp([`${R}/nope`])
    assert.ok(
      r.stderr.endsWith(
        'mcp: serving 0 tools (0 skills registered)\nmcp: hint: no skill registered from the dirs: see the loader lines above, or run load-dirs --explain on them\n',
      ),
      r.stderr,
    )
    r = await mcp([`${R}/risky`])
    assert.ok(
      r.stderr.endsWith(
        'mcp: hint: none of the 1 skill registered is offered: see the lines above (--class names the classes to serve)\n',
      ),
      r.stderr,
    )
  })
  test('a dir holding no skill.json: the loader says nothing, and the hint points at no line', async () => {
    makeTree(R, { 'empty/notes.txt': 'no pack here\n' })
    const r = await mcp([`${R}/empty`])
    assert.equal(
      r.stderr,
      'mcp: serving 0 tools (0 skills registered)\nmcp: hint: no skill registered from the dirs, and the loader said nothing: no skill.json was found under them\n',
    )
  })
  test('tools served: no hint', async () => {
    const r = await mcp([`${R}/skills`])
    assert.ok(r.stderr.endsWith('mcp: serving 1 tool (1 skill registered)\n'), r.stderr)
  })
})
