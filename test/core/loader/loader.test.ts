import assert from 'node:assert/strict'
import { execFileSync, spawn } from 'node:child_process'
import { once } from 'node:events'
import { lstatSync, mkdirSync, readdirSync } from 'node:fs'
import { basename, join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fromText, toBuffer } from '../../../src/core/go/gostring.js'
import { buildSubprocessSkill } from '../../../src/core/loader/build.js'
import { type LoaderEvent, loadDirs } from '../../../src/core/loader/loader.js'
import { Registry } from '../../../src/core/loader/registry.js'
import { expectGolden } from '../../helpers/golden.js'
import { ECHO, makeTree, manifest, tempRoot } from '../../helpers/tree.js'
import { mkfifoSync } from '../lint/fifo.js'

/** The tree behind sections-2-4.golden: one pack per line of spec sections 2–4. */
function buildSpecTree(R: string): string[] {
  const S = `${R}/skills`
  makeTree(R, {
    'outside.sh': ECHO,
    'file.txt': 'not a dir',
    'skills/..hidden/run.sh': ECHO,
    'skills/A_upper/skill.json': manifest({ name: 'upper_first' }),
    'skills/A_upper/run.sh': ECHO,
    'skills/bad_class/skill.json': manifest({ name: 'bad_class', class: 'Safe' }),
    'skills/bad_class/run.sh': ECHO,
    'skills/bom/skill.json': `\ufeff${manifest({ name: 'bom' })}`,
    'skills/case_keys/skill.json':
      '{"NAME":"case_keys","Description":"x","ENTRY":"run.sh","cla\u017fs":"mutating"}',
    'skills/case_keys/run.sh': ECHO,
    'skills/dangling/skill.json': { link: 'nowhere.json' },
    'skills/desc_missing/skill.json': manifest({ name: 'desc_missing', description: undefined }),
    'skills/dir_named/skill.json/inner/skill.json': manifest({ name: 'dir_named_inner' }),
    'skills/dir_named/skill.json/inner/run.sh': ECHO,
    'skills/dotdot/skill.json': manifest({ name: 'dotdot', entry: '../..hidden/run.sh' }),
    'skills/dup_a/skill.json': manifest({ name: 'dup' }),
    'skills/dup_a/run.sh': ECHO,
    'skills/dup_b/skill.json': manifest({ name: 'dup' }),
    'skills/dup_b/run.sh': ECHO,
    'skills/entry_missing/skill.json': manifest({ name: 'entry_missing', entry: '' }),
    'skills/escape/skill.json': manifest({ name: 'escape', entry: '../../outside.sh' }),
    'skills/escape_link/skill.json': manifest({ name: 'escape_link' }),
    'skills/escape_link/run.sh': { link: `${R}/outside.sh` },
    'skills/huge_timeout/skill.json':
      '{"name":"huge_timeout","description":"d","entry":"run.sh","timeout_seconds":18446744074}',
    'skills/huge_timeout/run.sh': ECHO,
    'skills/link_dir/skill.json': { link: '../A_upper' },
    'skills/link_manifest/skill.json': { link: '../A_upper/skill.json' },
    'skills/link_to_dir_pack': { link: `${R}/skills2/ok2` },
    'skills/loop/skill.json': manifest({ name: 'loop', entry: 'a' }),
    'skills/loop/a': { link: 'b' },
    'skills/loop/b': { link: 'a' },
    'skills/name_ctrl/skill.json': manifest({ name: 'a\u0001b\u00adc\u200bd\u00e9' }),
    'skills/name_quote/skill.json': manifest({ name: 'say "hi"\tnow\nok' }),
    'skills/no_name/skill.json': manifest({ name: undefined }),
    'skills/not_dir/skill.json': manifest({ name: 'not_dir', entry: 'run.sh/x' }),
    'skills/not_dir/run.sh': ECHO,
    'skills/null_top/skill.json': 'null',
    'skills/run_missing/skill.json': manifest({ name: 'run_missing' }),
    'skills/syntax/skill.json': '{"name": "x",}',
    'skills/toplevel_array/skill.json': '[]',
    'skills/type_err/skill.json': manifest({ name: 'type_err', timeout_seconds: 1.5 }),
    'skills/web/skill.json': manifest({ name: 'web_search' }),
    'skills/web/run.sh': ECHO,
    'skills/zz/skill.json.bak': manifest({ name: 'backup' }),
    'skills2/dup/skill.json': manifest({ name: 'upper_first' }),
    'skills2/dup/run.sh': ECHO,
    'skills2/ok2/skill.json': manifest({ name: 'second_dir' }),
    'skills2/ok2/run.sh': ECHO,
    'skills3/p/skill.json': manifest({ name: 'third_dir' }),
    'skills3/p/run.sh': ECHO,
    linkroot: { link: `${R}/skills2` },
  })
  // JSON.stringify(1.5) is "1.5", as the golden line expects.
  return [
    ' ',
    'relative/skills',
    `${R}/missing`,
    `${R}/file.txt`,
    `${R}/file.txt/sub`,
    `${R}/linkroot`,
    `  ${S}  `,
    `${R}/skills2`,
    `${R}/./skills3/`,
  ]
}

/**
 * What the loader reads under the children of root after the first, when it has more than two:
 * each directory's listing and each non-directory named skill.json (symlinks are not followed).
 */
function readsAfterFirst(root: string): number {
  const names = readdirSync(root).sort()
  if (names.length <= 2) return 0
  let n = 0
  const visit = (p: string) => {
    if (lstatSync(p).isDirectory()) {
      n++
      for (const k of readdirSync(p)) visit(join(p, k))
    } else if (basename(p) === 'skill.json') n++
  }
  for (const name of names.slice(1)) visit(join(root, name))
  return n
}

function run(dirs: string[], registry = new Registry()) {
  const events: LoaderEvent[] = []
  const result = loadDirs(dirs.map(fromText), { registry, onEvent: (e) => events.push(e) })
  return { events, result }
}

describe('loadDirs golden (spec sections 2–4)', () => {
  let R = ''
  let dirs: string[] = []
  let cleanup = () => {}
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    dirs = buildSpecTree(R)
  })
  after(() => cleanup())

  test('every line, byte for byte, in order', () => {
    const { events, result } = run(dirs)
    const got = toBuffer(events.map((e) => `${e.message}\n`).join(''))
    // The golden writes the temp root as $ROOT.
    expectGolden(
      'test/golden/load-dirs/sections-2-4.golden',
      Buffer.from(got.toString('latin1').replaceAll(R, '$ROOT'), 'latin1'),
    )
    assert.equal(result.count, 7)
    assert.equal(result.err, null)
  })

  test('each line with its kind; the skills registered, in order', () => {
    const { events, result } = run(dirs)
    const K = {
      a: 'skip-non-absolute',
      n: 'dir-not-present',
      d: 'not-a-directory',
      s: 'stat-error',
      r: 'registered',
      b: 'build-error',
      p: 'parse-error',
      u: 'duplicate',
    } as const
    // One letter per golden line (see K).
    const want = 'andsrbprpbrbrubbbrpbbbbbbbbpppuurr'
    assert.deepEqual(
      events.map((e) => e.kind),
      [...want].map((c) => K[c as keyof typeof K]),
    )
    assert.deepEqual(
      result.skills.map((x) => x.key),
      ['upper_first', 'case_keys', 'dir_named_inner', 'dup', 'huge_timeout', 'second_dir', 'third_dir'],
    )
    for (const e of events) {
      if (e.kind === 'registered') assert.equal(e.skill?.key, e.name)
      if (e.kind === 'build-error' || e.kind === 'parse-error') assert.ok(e.err !== null, e.message)
      if (e.kind === 'duplicate') assert.equal(e.err, null)
    }
  })

  test('defaults and the int64 wrap of timeout_seconds', () => {
    const { result } = run([`${R}/skills`])
    const byName = new Map(result.skills.map((s) => [s.key, s]))
    const upper = byName.get('upper_first')!
    assert.equal(upper.class, 'safe')
    assert.equal(upper.category, 'external')
    assert.equal(upper.timeoutNs, 30_000_000_000n)
    assert.equal(upper.entry, `${R}/skills/A_upper/run.sh`)
    // 18446744074 s * 1e9 overflows int64 and wraps to 290448384 ns (positive, so it is kept).
    assert.equal(byName.get('huge_timeout')!.timeoutNs, 290_448_384n)
    assert.equal(byName.get('case_keys')!.class, 'mutating')
  })

  test('a symlinked root passes the stat check but loads nothing', () => {
    const { events, result } = run([`${R}/linkroot`])
    assert.deepEqual(events, [])
    assert.equal(result.count, 0)
  })

  test('a symlinked root spelled /link/ or /link/. is walked, paths printed under that spelling, cleaned', () => {
    const plain = run([`${R}/skills2`]).events.map((e) => e.message)
    assert.ok(plain.length > 0)
    for (const spelling of [`${R}/linkroot/`, `${R}/linkroot/.`]) {
      const { events } = run([spelling])
      assert.deepEqual(
        events.map((e) => e.message),
        plain.map((m) => m.replaceAll(`${R}/skills2/`, `${R}/linkroot/`)),
        spelling,
      )
    }
  })

  test('a root that is a symlink named skill.json to a dir: parsed as a manifest, read fails as a dir', () => {
    makeTree(R, { 'rootlink/skill.json': { link: `${R}/skills2` } })
    const { events, result } = run([`${R}/rootlink/skill.json`])
    assert.deepEqual(
      events.map((e) => e.message),
      [`skill loader: parse ${R}/rootlink/skill.json: read: read ${R}/rootlink/skill.json: is a directory`],
    )
    assert.equal(result.count, 0)
  })

  test('Unicode white space around a dir is trimmed as strings.TrimSpace does; a BOM is not', () => {
    const plain = run([`${R}/skills2`]).events.map((e) => e.message)
    const padded = run([`\u00a0\u0085${R}/skills2\u3000\u2029\u202f`]).events.map((e) => e.message)
    assert.deepEqual(padded, plain)
    const bom = run([`\ufeff${R}/skills2`])
    assert.deepEqual(
      bom.events.map((e) => e.message),
      [`skill loader: skip non-absolute dir "\\ufeff${R}/skills2"`],
    )
  })

  test('with a worker reading ahead: the same events, in the same order', () => {
    const goDirs = dirs.map(fromText)
    const seq: LoaderEvent[] = []
    const par: LoaderEvent[] = []
    const fromWorker: number[] = []
    const a = loadDirs(goDirs, { registry: new Registry(), onEvent: (e) => seq.push(e) })
    // afterMs 0 and waitForWorker: the worker reads everything after the first child of each dir.
    const b = loadDirs(goDirs, {
      registry: new Registry(),
      onEvent: (e) => par.push(e),
      parallel: { afterMs: 0, waitForWorker: true, onShared: (n) => fromWorker.push(n) },
    })
    // Errors read by the worker arrive as their text (Go's text, the same bytes).
    const text = (e: LoaderEvent) => ({
      ...e,
      err: e.err?.error() ?? null,
      parsed: e.parsed && { ...e.parsed, err: e.parsed.err?.error() ?? null },
    })
    assert.deepEqual(par.map(text), seq.map(text))
    assert.deepEqual(b, a)
    // waitForWorker makes the worker take every child after the first, whatever the threads'
    // timing: all their listings and manifests came from it. Dirs of two children or fewer
    // never start one.
    assert.deepEqual(fromWorker, [
      readsAfterFirst(`${R}/skills`),
      readsAfterFirst(`${R}/skills2`),
      readsAfterFirst(`${R}/skills3`),
    ])
    assert.ok(fromWorker[0] > 40, JSON.stringify(fromWorker))
  })

  test('a worker that dies or sends a read out of order: the same events, read from the disk', () => {
    const goDirs = dirs.map(fromText)
    const text = (e: LoaderEvent) => ({
      ...e,
      err: e.err?.error() ?? null,
      parsed: e.parsed && { ...e.parsed, err: e.parsed.err?.error() ?? null },
    })
    const want: LoaderEvent[] = []
    loadDirs(goDirs, { registry: new Registry(), onEvent: (e) => want.push(e) })
    for (const fault of ['crash', 'misorder'] as const) {
      const got: LoaderEvent[] = []
      const fromWorker: number[] = []
      const t0 = Date.now()
      loadDirs(goDirs, {
        registry: new Registry(),
        onEvent: (e) => got.push(e),
        parallel: { afterMs: 0, waitForWorker: true, fault, onShared: (n) => fromWorker.push(n) },
      })
      assert.deepEqual(got.map(text), want.map(text), fault)
      // Nothing was taken from the worker: it died first, or its first read was not the one asked for.
      assert.deepEqual(fromWorker, [0, 0, 0], fault)
      // A dead worker is noticed at once, not after the 30 s the main thread would wait for a live one.
      assert.ok(Date.now() - t0 < 10_000, `${fault}: ${Date.now() - t0} ms`)
    }
  })

  test('entries resolve as they do without any cache, under a root reached through a symlink', () => {
    makeTree(R, { alias: { link: R } })
    const root = `${R}/alias/skills`
    const { events } = run([root])
    let built = 0
    for (const e of events) {
      if (e.kind === 'parse-error' || e.kind === 'walk-error' || !e.parsed) continue
      // buildSubprocessSkill with no cache: EvalSymlinks from "/" for every entry and the root.
      const b = buildSubprocessSkill(e.parsed.manifest, e.path, fromText(root))
      if (b.ok) assert.equal(e.skill?.entry ?? b.value.entry, b.value.entry)
      else assert.equal(e.message, `skill loader: build ${e.name} (${e.path}): ${b.err.error()}`)
      built++
    }
    assert.ok(built > 15)
    const upper = events.find((e) => e.name === 'upper_first')
    assert.equal(upper?.skill?.entry, `${R}/skills/A_upper/run.sh`)
  })

  test('a non-absolute dir is quoted as Go quotes it (%q)', () => {
    // A GoString: '\xff' is the byte 0xff (invalid UTF-8), '\xe2\x80\x8b' is U+200B.
    const events: LoaderEvent[] = []
    loadDirs(['rel/"q"\ta\u0001b\xff\xe2\x80\x8b\\'], {
      registry: new Registry(),
      onEvent: (e) => events.push(e),
    })
    assert.deepEqual(
      events.map((e) => [e.kind, e.message]),
      [['skip-non-absolute', 'skill loader: skip non-absolute dir "rel/\\"q\\"\\ta\\x01b\\xff\\u200b\\\\"']],
    )
  })

  test('an empty registry lets a builtin name through', () => {
    const { events } = run([`${R}/skills`], new Registry([]))
    const web = events.find((e) => e.path === `${R}/skills/web/skill.json`)!
    assert.equal(web.kind, 'registered')
  })
})

describe('manifests that are not plain files, and a walk error', () => {
  let R = ''
  let cleanup = () => {}
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
  })
  after(() => cleanup())

  /** loadDirs with onBlocking recorded among the events. */
  function load(dirs: string[]) {
    const seen: string[] = []
    const events: LoaderEvent[] = []
    const result = loadDirs(dirs.map(fromText), {
      registry: new Registry(),
      onEvent: (e) => {
        events.push(e)
        seen.push(`${e.kind} ${e.path}`)
      },
      onBlocking: (p) => seen.push(`blocking ${p}`),
    })
    return { seen, events, result }
  }

  test('a device that never ends stops the walk there: no line after it, no error', () => {
    makeTree(R, {
      'zero/a/skill.json': manifest({ name: 'before_zero' }),
      'zero/a/run.sh': ECHO,
      'zero/b/skill.json': { link: '/dev/zero' },
      'zero/c/skill.json': manifest({ name: 'after_zero' }),
      'zero/c/run.sh': ECHO,
      'later/skill.json': manifest({ name: 'later_dir' }),
      'later/run.sh': ECHO,
    })
    const { seen, result } = load([`${R}/zero`, `${R}/later`])
    assert.deepEqual(seen, [`registered ${R}/zero/a/skill.json`])
    assert.deepEqual(result.stopped, { path: `${R}/zero/b/skill.json`, kind: 'endless' })
    assert.equal(result.err, null)
    assert.equal(result.count, 1)
  })

  test('a device that ends is judged on what it gave, without blocking', () => {
    makeTree(R, { 'null/a/skill.json': { link: '/dev/null' } })
    const { seen, events, result } = load([`${R}/null`])
    assert.deepEqual(seen, [`parse-error ${R}/null/a/skill.json`])
    assert.equal(
      events[0].message,
      `skill loader: parse ${R}/null/a/skill.json: decode: unexpected end of JSON input`,
    )
    assert.equal(result.stopped, null)
  })

  test('a FIFO: the caller is told before the loader blocks on it, then it is read as a file', async (t) => {
    makeTree(R, { 'fifo/a/run.sh': ECHO })
    mkfifoSync(`${R}/fifo/a/skill.json`)
    // The writer blocks until the loader opens the FIFO; no timing either way.
    const writer = spawn('sh', ['-c', `printf '%s' '${manifest({ name: 'from_fifo' })}' > skill.json`], {
      cwd: `${R}/fifo/a`,
      stdio: 'ignore',
    })
    t.after(() => writer.kill('SIGKILL'))
    const { seen, events, result } = load([`${R}/fifo`])
    assert.deepEqual(seen, [`blocking ${R}/fifo/a/skill.json`, `registered ${R}/fifo/a/skill.json`])
    assert.equal(events[0].name, 'from_fifo')
    assert.equal(result.stopped, null)
    await once(writer, 'exit')
    // Without onBlocking: the same, untold.
    const again = spawn('sh', ['-c', `printf '%s' '${manifest({ name: 'again' })}' > skill.json`], {
      cwd: `${R}/fifo/a`,
      stdio: 'ignore',
    })
    t.after(() => again.kill('SIGKILL'))
    const quiet: string[] = []
    loadDirs([`${R}/fifo`], { registry: new Registry(), onEvent: (e) => quiet.push(`${e.kind} ${e.name}`) })
    assert.deepEqual(quiet, ['registered again'])
    await once(again, 'exit')
  })

  test('a directory that cannot be listed (a path too long to open) is a walk error line', (t) => {
    // Nested by relative steps: no absolute path this long can be created in one call.
    const base = `${R}/deep/a`
    makeTree(R, { 'deep/a/x': 'x' })
    const cwd = process.cwd()
    t.after(() => process.chdir(cwd))
    process.chdir(base)
    const seg = 'd'.repeat(250)
    for (let k = 0; k < 17; k++) {
      mkdirSync(seg)
      process.chdir(seg)
    }
    process.chdir(cwd)
    // rm(1) removes what Node's rmSync cannot reach by absolute paths.
    t.after(() => execFileSync('rm', ['-rf', `${R}/deep`]))
    const { events, result } = load([`${R}/deep`])
    assert.deepEqual(
      events.map((e) => e.kind),
      ['walk-error'],
    )
    const e = events[0]
    // The first path of 4096 bytes or more is the one that fails.
    let first = base
    while (first.length < 4096) first += `/${seg}`
    assert.equal(e.path, first)
    assert.equal(e.root, `${R}/deep`)
    assert.equal(e.name, null)
    assert.ok(e.err !== null && /file name too long$/.test(e.err.error()), e.err?.error())
    assert.equal(e.message, `skill loader: walk ${first}: ${e.err.error()}`)
    assert.equal(result.err, null)
  })
})
