import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { ErrorString } from '../../../src/core/go/errors.js'
import { fromText } from '../../../src/core/go/gostring.js'
import { DirentInfo } from '../../../src/core/go/os/file.js'
import {
  type BuildCache,
  buildSubprocessSkill,
  checkName,
  newBuildCache,
  pathHasPrefix,
  resolveEntry,
  validKey,
} from '../../../src/core/loader/build.js'
import { parseManifest } from '../../../src/core/loader/manifest.js'
import { ECHO, makeTree, manifest, tempRoot } from '../../helpers/tree.js'

// The build's messages quote user values with Go's %q (strconv.Quote), not with plain quotes:
// a value holding `"`, a control byte, an invisible rune or invalid UTF-8 shows escaped.
describe('buildSubprocessSkill: %q in its messages', () => {
  let R = ''
  let cleanup = () => {}
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
  })
  after(() => cleanup())

  function build(rel: string, fields: Record<string, unknown>, raw?: Buffer) {
    makeTree(R, { [`${rel}/skill.json`]: manifest(fields), [`${rel}/run.sh`]: ECHO })
    if (raw) writeFileSync(`${R}/${rel}/skill.json`, raw)
    const path = fromText(`${R}/${rel}/skill.json`)
    const parsed = parseManifest(path)
    assert.equal(parsed.err, null)
    return buildSubprocessSkill(parsed.manifest, path, fromText(R))
  }

  test('class: quotes, escapes and invisible runes as Go quotes them', () => {
    const r = build('c', { name: 'c', class: 'say "hi"\n\u0001\u200b\u00e9\t' })
    assert.equal(r.ok, false)
    assert.equal(!r.ok && r.err.error(), 'class "say \\"hi\\"\\n\\x01\\u200b\u00c3\u00a9\\t" invalid')
  })

  test('class: an invalid UTF-8 byte, decoded as U+FFFD, is printed as is', () => {
    // encoding/json turns the byte 0xff into U+FFFD, which %q leaves alone (printable).
    const raw = Buffer.concat([
      Buffer.from('{"name":"d","description":"x","entry":"run.sh","class":"a'),
      Buffer.from([0xff]),
      Buffer.from('b"}'),
    ])
    const r = build('d', {}, raw)
    assert.equal(!r.ok && r.err.error(), 'class "a\xef\xbf\xbdb" invalid')
  })

  test('name: the same quoting', () => {
    const r = build('n', { name: 'Bad "n"\u0007' })
    assert.equal(!r.ok && r.err.error(), 'name "Bad \\"n\\"\\a" must be lower_snake [a-z0-9_]')
  })

  test('a valid class is kept; none is safe', () => {
    const a = build('ok1', { name: 'ok1', class: 'dangerous' })
    assert.equal(a.ok && a.value.class, 'dangerous')
    const b = build('ok2', { name: 'ok2' })
    assert.equal(b.ok && b.value.class, 'safe')
  })
})

describe('validKey, checkName, pathHasPrefix', () => {
  test('validKey: [a-z0-9_]+, bounds included, nothing else', () => {
    for (const k of ['a', 'z', '0', '9', '_', 'a_0z9']) assert.equal(validKey(k), true, k)
    for (const k of ['', '`', '{', '/', ':', 'A', 'a-b', 'a b', '\u00e9']) assert.equal(validKey(k), false, k)
    assert.equal(checkName('')?.error(), 'name required')
    assert.equal(checkName('ok_1'), null)
  })

  test('pathHasPrefix: the textual ".." quirk, roots, relative paths, unclean input', () => {
    const cases: [string, string, boolean][] = [
      ['/a', '/a', true],
      ['/a/b', '/a', true],
      ['/a/..b', '/a', false], // Rel gives "..b": counted as escaping
      ['/ab', '/a', false],
      ['/b', '/a', false],
      ['/x', '/', true],
      ['/..x', '/', false],
      ['/', '/', true],
      ['/a/./b/', '/a/', true],
      ['a/b', 'a', true],
      ['a/..b', 'a', false],
      ['b', 'a', false],
      ['b', '/a', false], // Rel fails: one absolute, one not
      ['/a', 'a', false],
    ]
    for (const [c, p, want] of cases) assert.equal(pathHasPrefix(c, p), want, `${c} under ${p}`)
  })
})

describe('resolveEntry and the build cache', () => {
  let R = ''
  let cleanup = () => {}
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    makeTree(R, {
      'w/p/skill.json': manifest({ name: 'p' }),
      'w/p/run.sh': ECHO,
      'w/t/skill.json': manifest({ name: 't' }),
      'w/t/run.sh': ECHO,
      'w/ln': { link: 't' },
      'w/skill.json': manifest({ name: 'top' }),
      'w/run.sh': ECHO,
      'wx/skill.json': manifest({ name: 'wx' }),
      'wx/run.sh': ECHO,
    })
  })
  after(() => cleanup())

  const entryOf = (manifestPath: string, root: string, cache?: BuildCache) => {
    const parsed = parseManifest(manifestPath)
    const b = buildSubprocessSkill(parsed.manifest, manifestPath, root, cache)
    return b.ok ? b.value.entry : `error: ${b.err.error()}`
  }

  test('resolveEntry: relative to the manifest dir, absolute as is, symlinks resolved, a relative manifest path made absolute', () => {
    assert.deepEqual(resolveEntry('run.sh', `${R}/w/ln/skill.json`), { ok: true, value: `${R}/w/t/run.sh` })
    assert.deepEqual(resolveEntry(`${R}/w/p/run.sh`, '/elsewhere/skill.json'), {
      ok: true,
      value: `${R}/w/p/run.sh`,
    })
    const r = resolveEntry('nope.sh', `${R}/w/p/skill.json`)
    assert.equal(
      !r.ok && r.err.error(),
      `eval entry symlinks: lstat ${R}/w/p/nope.sh: no such file or directory`,
    )
    const cwd = process.cwd()
    process.chdir(R)
    try {
      assert.deepEqual(resolveEntry('run.sh', 'w/p/skill.json'), { ok: true, value: `${R}/w/p/run.sh` })
      assert.deepEqual(resolveEntry('../p/run.sh', 'w/t/skill.json'), { ok: true, value: `${R}/w/p/run.sh` })
    } finally {
      process.chdir(cwd)
    }
  })

  test('the allow-list root: resolved once per cache; a root that cannot be resolved fails the build', () => {
    assert.equal(
      entryOf(`${R}/w/p/skill.json`, `${R}/missing`),
      `error: eval allowlist root: lstat ${R}/missing: no such file or directory`,
    )
    const cache = newBuildCache()
    cache.roots.set(`${R}/w`, { ok: false, err: new ErrorString('remembered') })
    assert.equal(entryOf(`${R}/w/p/skill.json`, `${R}/w`, cache), 'error: eval allowlist root: remembered')
    const fresh = newBuildCache()
    assert.equal(entryOf(`${R}/w/p/skill.json`, `${R}/w`, fresh), `${R}/w/p/run.sh`)
    assert.deepEqual(fresh.roots.get(`${R}/w`), { ok: true, value: `${R}/w` })
  })

  test('a cache for a walk trusts that the dirs below its root are not links (the walk never follows one)', () => {
    // Without a cache, or for a dir outside the walk root: the link is resolved.
    assert.equal(entryOf(`${R}/w/ln/skill.json`, `${R}/w`), `${R}/w/t/run.sh`)
    assert.equal(entryOf(`${R}/w/ln/skill.json`, `${R}/w`, newBuildCache()), `${R}/w/t/run.sh`)
    assert.equal(entryOf(`${R}/w/ln/skill.json`, `${R}`, newBuildCache(`${R}/wx`)), `${R}/w/t/run.sh`)
    assert.equal(entryOf(`${R}/w/ln/skill.json`, `${R}`, newBuildCache(`${R}/missing`)), `${R}/w/t/run.sh`)
    // With the walk root (given unclean, or "/"): the manifest dir is taken as walked.
    assert.equal(entryOf(`${R}/w/ln/skill.json`, `${R}/w`, newBuildCache(`${R}/w`)), `${R}/w/ln/run.sh`)
    assert.equal(entryOf(`${R}/w/ln/skill.json`, `${R}/w`, newBuildCache(`${R}/./w/`)), `${R}/w/ln/run.sh`)
    assert.equal(entryOf(`${R}/w/ln/skill.json`, '/', newBuildCache('/')), `${R}/w/ln/run.sh`)
    // The root's own manifest; a sibling whose name starts with the root's is not below it.
    assert.equal(entryOf(`${R}/w/skill.json`, `${R}/w`, newBuildCache(`${R}/w`)), `${R}/w/run.sh`)
    assert.equal(entryOf(`${R}/wx/skill.json`, `${R}`, newBuildCache(`${R}/w`)), `${R}/wx/run.sh`)
  })

  test('lstat answers from the listings of the dirs a walk is in, kept until their parent is left', () => {
    // Listings name entries that are not on the disk: an answer from one is ok, from the disk ENOENT.
    const fake = (dir: string, ...names: string[]): [string, DirentInfo][] =>
      names.map((n) => [n, new DirentInfo(n, `${dir}/${n}`, 0)])
    const W = `${R}/w`
    const cache = newBuildCache(`${W}/`)
    const has = (p: string) => cache.lstat(p).ok
    cache.onDir(`${W}/`, fake(W, 'ghost-root'))
    cache.onDir(`${W}/p`, fake(`${W}/p`, 'ghost-p'))
    cache.onDir(`${W}/p/q`, fake(`${W}/p/q`, 'ghost-q'))
    assert.equal(has(`${W}/ghost-root`), true)
    assert.equal(has(`${W}/p/ghost-p`), true)
    assert.equal(has(`${W}/p/q/ghost-q`), true)
    assert.equal(has(`${W}/p/other`), false)
    assert.equal(has(`${W}/p/run.sh`), true) // not in the listing: from the disk
    cache.onDir(`${W}/p/q`, null)
    assert.equal(has(`${W}/p/q/ghost-q`), true, 'kept while its parent is walked')
    cache.onDir(`${W}/p`, null)
    assert.equal(has(`${W}/p/q/ghost-q`), false, 'dropped when its parent is left')
    assert.equal(has(`${W}/p/ghost-p`), true)
    cache.onDir(`${W}/`, null)
    assert.equal(has(`${W}/ghost-root`), true)

    // Without a walk root, dirs are keyed Clean; "/" has its own key.
    const c2 = newBuildCache()
    c2.onDir(`${W}/./p/`, fake(`${W}/p`, 'ghost'))
    assert.equal(c2.lstat(`${W}/p/ghost`).ok, true)
    c2.onDir('/', fake('', 'ghost-at-slash'))
    assert.equal(c2.lstat('/ghost-at-slash').ok, true)
    assert.equal(c2.lstat('ghost-at-slash').ok, false)
    assert.equal(c2.lstat('/ghost').ok, false)
  })

  test('class: each valid value kept; defaults for class, category and timeout', () => {
    for (const c of ['safe', 'mutating', 'dangerous']) {
      makeTree(R, { [`c_${c}/skill.json`]: manifest({ name: c, class: c }), [`c_${c}/run.sh`]: ECHO })
      const path = `${R}/c_${c}/skill.json`
      const b = buildSubprocessSkill(parseManifest(path).manifest, path, R)
      assert.equal(b.ok && b.value.class, c)
    }
    const b = buildSubprocessSkill(parseManifest(`${R}/w/p/skill.json`).manifest, `${R}/w/p/skill.json`, R)
    assert.ok(b.ok)
    assert.equal(b.value.category, 'external')
    assert.equal(b.value.timeoutNs, 30_000_000_000n)
    assert.equal(b.value.manifestPath, `${R}/w/p/skill.json`)
  })
})
