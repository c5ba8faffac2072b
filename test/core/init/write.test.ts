import assert from 'node:assert/strict'
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, test } from 'node:test'
import type { PackFile } from '../../../src/core/init/render.js'
import { type InitFs, nodeFs, TargetError, writePack } from '../../../src/core/init/write.js'
import { makeTree, tempRoot } from '../../helpers/tree.js'

const FILES: PackFile[] = [
  { path: 'skill.json', content: Buffer.from('{"name":"x"}\n'), mode: 0o644 },
  { path: 'README.md', content: Buffer.from('# x\n'), mode: 0o644 },
  { path: 'run.sh', content: Buffer.from('#!/bin/sh\n'), mode: 0o755 },
  { path: 'examples/args.json', content: Buffer.from('{}\n'), mode: 0o644 },
]

/** Every file and dir under root: path → content (files) or '<dir>', with the mode. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (dir: string, prefix: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name)
      const st = lstatSync(p)
      const key = `${prefix}${name}`
      if (st.isDirectory()) {
        out[key] = `<dir> ${(st.mode & 0o777).toString(8)}`
        walk(p, `${key}/`)
      } else out[key] = `${(st.mode & 0o777).toString(8)} ${readFileSync(p, 'latin1')}`
    }
  }
  walk(root, '')
  return out
}

/** A filesystem whose nth call of `op` fails (as a full disk or a kill would cut it). */
function failingFs(op: keyof InitFs, nth: number): InitFs {
  let calls = 0
  return {
    ...nodeFs,
    [op]: async (...args: unknown[]) => {
      if (++calls === nth)
        throw Object.assign(new Error(`ENOSPC: no space left on device, ${op}`), { code: 'ENOSPC' })
      return (nodeFs[op] as (...a: unknown[]) => Promise<unknown>)(...args)
    },
  }
}

describe('writePack', () => {
  let R = ''
  let cleanup = () => {}
  beforeEach(() => {
    ;({ root: R, cleanup } = tempRoot())
  })
  afterEach(() => cleanup())

  test('a new dir (and its parents) gets every file, with its mode; nothing else is left', async () => {
    const r = await writePack(join(R, 'a/b/pack'), FILES)
    assert.deepEqual(r, { written: FILES.map((f) => f.path), kept: [], skipped: [] })
    const snap = snapshot(R)
    assert.equal(snap['a/b/pack/run.sh'], '755 #!/bin/sh\n')
    assert.equal(snap['a/b/pack/skill.json'], '644 {"name":"x"}\n')
    assert.deepEqual(readdirSync(join(R, 'a/b')), ['pack'])
    assert.match(snap['a/b/pack'], /^<dir> 7[57]5$/) // a plain dir's mode, not mkdtemp's 700
  })

  test('an empty dir is filled', async () => {
    makeTree(R, { pack: { dir: true } })
    await writePack(join(R, 'pack'), FILES)
    assert.deepEqual(readdirSync(join(R, 'pack')).sort(), ['README.md', 'examples', 'run.sh', 'skill.json'])
    assert.deepEqual(readdirSync(R), ['pack'])
  })

  test('a non-empty dir is refused, untouched', async () => {
    makeTree(R, { 'pack/skill.json': 'mine', 'pack/notes.txt': 'keep' })
    const before = snapshot(R)
    await assert.rejects(
      writePack(join(R, 'pack'), FILES),
      new TargetError(
        `${R}/pack exists and is not empty: nothing written (--force adds only the files it lacks)`,
      ),
    )
    assert.deepEqual(snapshot(R), before)
  })

  test('a file is refused', async () => {
    makeTree(R, { pack: 'a file' })
    await assert.rejects(
      writePack(join(R, 'pack'), FILES, { force: true }),
      /pack exists and is not a directory/,
    )
    assert.deepEqual(snapshot(R), { pack: '644 a file' })
  })

  test('--force adds only the missing files; existing ones stay byte for byte', async () => {
    makeTree(R, { 'pack/skill.json': 'mine', 'pack/run.sh': { file: 'my code', mode: 0o700 }, 'pack/x': 'x' })
    const r = await writePack(join(R, 'pack'), FILES, { force: true })
    assert.deepEqual(r, {
      written: ['README.md', 'examples/args.json'],
      kept: ['skill.json', 'run.sh'],
      skipped: [],
    })
    const snap = snapshot(join(R, 'pack'))
    assert.equal(snap['skill.json'], '644 mine')
    assert.equal(snap['run.sh'], '700 my code')
    assert.equal(snap.x, '644 x')
    assert.equal(snap['README.md'], '644 # x\n')
    assert.deepEqual(readdirSync(R), ['pack'])
  })

  test('a write failing half way leaves nothing: no pack, no temp dir, no parent it made', async () => {
    for (const [op, nth] of [
      ['writeNew', 3],
      ['mkdirp', 4],
      ['rename', 1],
    ] as const) {
      await assert.rejects(writePack(join(R, 'new/pack'), FILES, { fs: failingFs(op, nth) }), /ENOSPC/, op)
      assert.deepEqual(readdirSync(R), [], op)
    }
  })

  test('with --force, a failure while moving files in takes back the ones added', async () => {
    makeTree(R, { 'pack/skill.json': 'mine' })
    const before = snapshot(R)
    await assert.rejects(
      writePack(join(R, 'pack'), FILES, { force: true, fs: failingFs('link', 3) }),
      /ENOSPC/,
    )
    assert.deepEqual(snapshot(R), before)
  })

  test('an abort (SIGINT) between two writes leaves nothing', async () => {
    const controller = new AbortController()
    const fs: InitFs = {
      ...nodeFs,
      writeNew: async (path, data, mode) => {
        await nodeFs.writeNew(path, data, mode)
        controller.abort()
      },
    }
    await assert.rejects(writePack(join(R, 'pack'), FILES, { fs, signal: controller.signal }), {
      name: 'AbortError',
    })
    assert.deepEqual(readdirSync(R), [])
  })

  test('the build step runs in the complete staged pack; what it makes moves in too', async () => {
    let seen: string[] = []
    const r = await writePack(join(R, 'pack'), FILES, {
      beforeCommit: async (staged) => {
        seen = readdirSync(staged).sort()
        makeTree(staged, { 'bin/tool': { exec: 'built' } })
      },
    })
    assert.deepEqual(seen, ['README.md', 'examples', 'run.sh', 'skill.json'])
    assert.deepEqual(r.written, [...FILES.map((f) => f.path), 'bin/tool'])
    assert.ok(existsSync(join(R, 'pack/bin/tool')))
  })

  test('--force: a build output is not added beside sources that differ from the template’s', async () => {
    const build = async (staged: string) => makeTree(staged, { 'bin/tool': { exec: 'built' } })
    makeTree(R, { 'a/run.sh': 'changed', 'b/run.sh': { file: '#!/bin/sh\n', mode: 0o755 } })
    const a = await writePack(join(R, 'a'), FILES, { force: true, beforeCommit: build })
    assert.deepEqual(a.skipped, ['bin/tool'])
    assert.ok(!existsSync(join(R, 'a/bin')))
    const b = await writePack(join(R, 'b'), FILES, { force: true, beforeCommit: build })
    assert.deepEqual(b.skipped, [])
    assert.ok(b.written.includes('bin/tool'))
  })
})
