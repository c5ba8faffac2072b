/**
 * path/filepath against real Go: the lexical functions (Clean, Join, Rel, Abs,
 * Base, Dir, IsAbs) on random paths, and EvalSymlinks and Walk over generated
 * temp trees with links of every kind and odd names.
 */
import { execFileSync } from 'node:child_process'
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import nodePath from 'node:path'
import { after, test } from 'node:test'
import { ErrorString } from '../../src/core/go/errors.js'
import type { GoString } from '../../src/core/go/gostring.js'
import { abs, base, clean, dir, isAbs, join, rel } from '../../src/core/go/path/filepath/path.js'
import { evalSymlinks } from '../../src/core/go/path/filepath/symlink.js'
import { walk } from '../../src/core/go/path/filepath/walk.js'
import { utf8 } from './gen.js'
import {
  b64,
  capture,
  closeHarness,
  finish,
  GO_MISSING,
  GoHarness,
  getHarness,
  Mismatches,
  REPRODUCE,
  type Resp,
  seedFor,
  show,
  showValue,
  unb64,
  unb64OrNull,
} from './harness.js'
import { Rand } from './rand.js'

after(closeHarness)

const buf = (p: GoString): Buffer => Buffer.from(p, 'latin1')

// ---------------------------------------------------------------------------
// Lexical functions

const COMPONENTS = [
  '.',
  '..',
  '..hidden',
  '.hidden',
  'a',
  'b',
  'c',
  'name',
  '',
  '...',
  'a b',
  '\xff',
  utf8(0xe9),
  '-',
]

function randomPath(rand: Rand): GoString {
  let s = rand.chance(0.4) ? '/'.repeat(1 + rand.int(2)) : ''
  const n = rand.int(6)
  for (let i = 0; i < n; i++) {
    s += rand.pick(COMPONENTS)
    if (i < n - 1)
      s += '/'.repeat(
        rand.weighted([
          [8, 1],
          [1, 2],
          [1, 0],
        ] as const),
      )
  }
  if (rand.chance(0.2)) s += '/'.repeat(1 + rand.int(2))
  return s
}

function relPair(rand: Rand): [GoString, GoString] {
  const a = randomPath(rand)
  switch (rand.int(4)) {
    case 0:
      return [a, randomPath(rand)]
    case 1:
      return [a, `${a}/${randomPath(rand).replace(/^\/+/, '')}`]
    case 2:
      return [`${a}/${randomPath(rand).replace(/^\/+/, '')}`, a]
    default: {
      // Same absoluteness, shared prefix.
      const root = rand.chance(0.5) ? '/' : ''
      const common = randomPath(rand).replace(/^\/+/, '')
      return [
        `${root}${common}/${randomPath(rand).replace(/^\/+/, '')}`,
        `${root}${common}/${randomPath(rand).replace(/^\/+/, '')}`,
      ]
    }
  }
}

/** A (string, error) result as the harness reports it. */
function result(r: { ok: true; value: GoString } | { ok: false; err: { error(): GoString } }) {
  return r.ok ? { out: r.value, err: null } : { out: '', err: r.err.error() }
}

const LEXICAL_EDGES = [
  '',
  '.',
  '..',
  '/',
  '//',
  '///',
  '/..',
  '/../..',
  '../..',
  './',
  './/',
  'a/',
  'a//',
  '/a/',
  '..hidden',
  '../..hidden',
  'a/../..',
  '/a/b/../../..',
]

test('filepath Clean, Join, Rel, Abs, Base, Dir, IsAbs on random paths', async (t) => {
  const go = await getHarness()
  if (!go) return t.skip(GO_MISSING)
  const seed = seedFor('filepath.lexical')
  t.diagnostic(`${REPRODUCE} (category seed ${seed})`)
  const rand = new Rand(seed)
  const paths: GoString[] = [...LEXICAL_EDGES]
  for (let i = 0; i < 3000; i++) paths.push(randomPath(rand))
  const joins: GoString[][] = [
    [],
    [''],
    ['', ''],
    ['', 'a'],
    ['a', ''],
    ['/', ''],
    ['', '/'],
    ['', '', 'a', ''],
  ]
  for (let i = 0; i < 2000; i++) joins.push(Array.from({ length: rand.int(5) }, () => randomPath(rand)))
  const rels: [GoString, GoString][] = [
    ['', ''],
    ['.', ''],
    ['a', '..'],
    ['..', 'a'],
    ['../a', 'b'],
    ['/', '/a'],
    ['/a', 'a'],
    ['a', '/a'],
  ]
  for (let i = 0; i < 3000; i++) rels.push(relPair(rand))

  type Case = { input: string; req: Record<string, unknown> & { op: string }; ours: () => unknown }
  const cases: Case[] = []
  const lexical = (v: GoString) => ({ out: v, err: null })
  for (const p of paths) {
    const input = show(p)
    const path = b64(p)
    cases.push({ input: `Clean(${input})`, req: { op: 'clean', path }, ours: () => lexical(clean(p)) })
    cases.push({ input: `Base(${input})`, req: { op: 'base', path }, ours: () => lexical(base(p)) })
    cases.push({ input: `Dir(${input})`, req: { op: 'dir', path }, ours: () => lexical(dir(p)) })
    cases.push({ input: `Abs(${input})`, req: { op: 'abs', path }, ours: () => result(abs(p)) })
    cases.push({ input: `IsAbs(${input})`, req: { op: 'isabs', path }, ours: () => ({ abs: isAbs(p) }) })
  }
  for (const elems of joins) {
    cases.push({
      input: `Join(${elems.map((e) => show(e)).join(', ')})`,
      req: { op: 'join', elems: elems.map(b64) },
      ours: () => lexical(join(...elems)),
    })
  }
  for (const [bp, tp] of rels) {
    cases.push({
      input: `Rel(${show(bp)}, ${show(tp)})`,
      req: { op: 'rel', base: b64(bp), targ: b64(tp) },
      ours: () => result(rel(bp, tp)),
    })
  }
  const answers = await go.call(cases.map((c) => c.req as { op: string }))
  const mm = new Mismatches('filepath lexical')
  cases.forEach((c, i) => {
    const a = answers[i]
    const want = 'abs' in a ? { abs: a.abs } : { out: unb64(a.out), err: unb64OrNull(a.err) }
    mm.check(c.input, want, capture(c.ours))
  })
  finish(t, [mm])
})

// ---------------------------------------------------------------------------
// Trees on disk

const ODD_NAMES = [
  'name with space',
  'q"uote',
  "s'quote",
  'new\nline',
  'tab\tname',
  '\xff\xfe',
  utf8(0xe9),
  'UPPER',
  'Z',
  '_u',
  '-d',
  '.hidden',
  '..hidden',
  'back\\slash',
  'x'.repeat(60),
]

type Kind = 'dir' | 'file' | 'link'

class Tree {
  /** Every node's absolute path (as a byte string) and kind, the root first. */
  readonly nodes: { path: GoString; kind: Kind }[] = []

  constructor(readonly root: GoString) {
    this.nodes.push({ path: root, kind: 'dir' })
  }

  private add(rel: GoString, kind: Kind, make: (p: Buffer) => void): GoString {
    const p = `${this.root}/${rel}`
    make(buf(p))
    this.nodes.push({ path: p, kind })
    return p
  }
  dir(rel: GoString): GoString {
    return this.add(rel, 'dir', (p) => mkdirSync(p))
  }
  file(rel: GoString, content = 'x'): GoString {
    return this.add(rel, 'file', (p) => writeFileSync(p, content))
  }
  link(rel: GoString, target: GoString): GoString {
    return this.add(rel, 'link', (p) => symlinkSync(buf(target), p))
  }
  exists(rel: GoString): boolean {
    try {
      lstatSync(buf(`${this.root}/${rel}`))
      return true
    } catch {
      return false
    }
  }
}

/** Temp roots made by this file; all removed when it ends, whatever happened. */
const tempRoots: GoString[] = []
after(() => {
  for (const r of tempRoots) rmSync(buf(r), { recursive: true, force: true })
})

function newRoot(label: string): GoString {
  // realpath: the temp dir's own path must hold no symlinks, or every answer would differ in ways that test nothing.
  const root = Buffer.from(
    realpathSync(mkdtempSync(nodePath.join(tmpdir(), `ongrid-diff-${label}-`))),
  ).toString('latin1')
  tempRoots.push(root)
  return root
}

/** The hand-made tree: every kind of link and odd name the brief lists. */
function fixedTree(): Tree {
  const t = new Tree(newRoot('fixed'))
  const R = t.root
  t.dir('dir')
  t.file('dir/f')
  t.dir('dir/sub')
  t.file('dir/sub/deep.txt')
  t.link('dir/sub/up', '../..')
  t.link('dir/sub/abs_up', R)
  t.file('file.txt')
  t.link('abs_link', `${R}/dir`)
  t.link('rel_link', 'dir')
  t.link('rel_up', `../${nodePath.posix.basename(R)}/dir`)
  t.link('dangling', 'nowhere')
  t.link('abs_dangling', `${R}/missing`)
  t.link('chain1', 'chain2')
  t.link('chain2', 'chain3')
  t.link('chain3', 'dir/sub')
  t.link('loop1', 'loop2')
  t.link('loop2', 'loop1')
  t.link('self', 'self')
  t.link('through_file', 'file.txt/x')
  t.link('file_link', 'file.txt')
  t.link('dot_link', '.')
  t.link('dotdot_link', '..')
  t.link('root_link', '/')
  t.link('slash_link', 'dir/')
  t.link('dotslash_link', './dir/./sub/')
  t.link('empty_parts', 'dir//sub//')
  t.link('abs_root_dotdot', `${R}/../${nodePath.posix.basename(R)}/dir/../dir/sub/..`)
  t.link('abs_tmp', nodePath.posix.dirname(R))
  t.dir('odd')
  for (const name of ODD_NAMES) t.file(`odd/${name}`)
  t.link('odd/link to space', 'name with space')
  t.link('odd/\xfflink', '\xff\xfe')
  t.link(`odd/${utf8(0xe9)}dir`, '../dir')
  // A chain longer than Go's 255-link limit, and one just within it.
  for (let i = 0; i < 258; i++) t.link(`long${i}`, i === 257 ? 'dir' : `long${i + 1}`)
  for (let i = 0; i < 10; i++) t.link(`short${i}`, i === 9 ? 'dir' : `short${i + 1}`)
  return t
}

const TREE_NAMES = ['a', 'b', 'c', 'd', 'link', 'f.txt', ...ODD_NAMES.slice(0, 8)]

/** A random tree: dirs, files, and links with relative, absolute, dangling, looping targets. */
function randomTree(rand: Rand, label: string): Tree {
  const t = new Tree(newRoot(label))
  const count = 12 + rand.int(25)
  for (let i = 0; i < count; i++) {
    const dirs = t.nodes.filter((n) => n.kind === 'dir')
    const parent = rand.pick(dirs).path
    const parentRel = parent === t.root ? '' : parent.slice(t.root.length + 1)
    const name = rand.pick(TREE_NAMES)
    const rel = parentRel === '' ? name : `${parentRel}/${name}`
    if (t.exists(rel)) continue
    const kind = rand.weighted<Kind>([
      [3, 'dir'],
      [3, 'file'],
      [4, 'link'],
    ])
    if (kind === 'dir') t.dir(rel)
    else if (kind === 'file') t.file(rel)
    else t.link(rel, linkTarget(rand, t, parent))
  }
  return t
}

function linkTarget(rand: Rand, t: Tree, parent: GoString): GoString {
  const other = rand.pick(t.nodes).path
  const relTo = (p: GoString) => nodePath.posix.relative(parent, p) || '.'
  switch (rand.int(9)) {
    case 0:
      return other
    case 1:
    case 2:
      return relTo(other)
    case 3:
      return relTo(other) + rand.pick(['/', '/.', '//', '/..', '/x', '/../x'])
    case 4:
      return rand.pick(['missing', '../missing', `${t.root}/missing/x`, '.', '..', '/', './'])
    case 5:
      // A sibling name that may become a link too: chains and loops.
      return rand.pick(TREE_NAMES)
    case 6: {
      const parts: string[] = []
      for (let i = 0, n = 1 + rand.int(5); i < n; i++)
        parts.push(rand.pick(['..', '.', ...TREE_NAMES.slice(0, 6)]))
      return (rand.chance(0.3) ? `${t.root}/` : '') + parts.join('/')
    }
    case 7:
      return `${other}/${rand.pick(['..', '.', 'a', '../..'])}`
    default:
      return relTo(rand.pick(t.nodes).path)
  }
}

/** The paths to resolve in a tree: every node, in absolute and cwd-relative form, with suffixes, and random walks. */
function evalQueries(rand: Rand, t: Tree): GoString[] {
  const cwd = Buffer.from(process.cwd()).toString('latin1')
  const relRoot = nodePath.posix.relative(cwd, t.root)
  const out = new Set<GoString>([
    '',
    '.',
    '/',
    '..',
    './',
    '//',
    t.root,
    relRoot,
    `${t.root}/`,
    `${relRoot}/`,
  ])
  // System-call errors: a NUL byte (EINVAL), a name over 255 bytes, a path over PATH_MAX.
  for (const p of [
    `${t.root}/a\x00b`,
    'a\x00',
    `${t.root}/${'n'.repeat(256)}`,
    `${t.root}/${'d/'.repeat(2100)}x`,
  ]) {
    out.add(p)
  }
  for (const n of t.nodes) {
    // Of the long link chains, the ends and the limit's edges are enough.
    const m = /\/(long|short)(\d+)$/.exec(n.path)
    if (m && !['0', '1', '2', '7', '254', '255', '256', '257'].includes(m[2])) continue
    const relPath = relRoot + n.path.slice(t.root.length)
    for (const p of [n.path, relPath]) {
      out.add(p)
      for (const suffix of ['/', '/.', '/..', '/x', '/../x', '//', '/./.'])
        if (rand.chance(0.35)) out.add(p + suffix)
    }
  }
  const names = [...new Set(t.nodes.map((n) => nodePath.posix.basename(n.path)))]
  for (let i = 0; i < 150; i++) {
    const parts: string[] = []
    for (let k = 0, n = 1 + rand.int(6); k < n; k++)
      parts.push(rand.pick(['..', '.', '', ...names, ...names]))
    out.add(`${rand.chance(0.6) ? t.root : relRoot}/${parts.join('/')}`)
  }
  return [...out]
}

/**
 * Whether walking "p/" stays inside the tree: it resolves there, or does not resolve
 * at all (an error to compare). realpath.native is the kernel's resolution; Node's JS
 * realpath applies ".." lexically after a link, which is not where the kernel goes.
 */
function walkableThrough(t: Tree, p: GoString): boolean {
  try {
    const real = realpathSync.native(buf(p), { encoding: 'buffer' }).toString('latin1')
    return real === t.root || real.startsWith(`${t.root}/`)
  } catch {
    return true
  }
}

/** Walk roots in a tree: the root in several spellings, every dir and link (with and without a trailing slash). */
function walkRoots(t: Tree): GoString[] {
  const cwd = Buffer.from(process.cwd()).toString('latin1')
  const relRoot = nodePath.posix.relative(cwd, t.root)
  const out = new Set<GoString>([
    t.root,
    `${t.root}/`,
    `${t.root}/.`,
    `${t.root}//`,
    relRoot,
    `${t.root}/missing`,
    '',
    `${t.root}/a\x00b`,
    `${t.root}/${'n'.repeat(256)}`,
  ])
  for (const n of t.nodes) {
    if (n.kind === 'file') continue
    out.add(n.path)
    // Walking "link/" follows the link: only where it stays inside the tree (not "/" or /tmp).
    if (n.kind === 'link' && walkableThrough(t, n.path)) out.add(`${n.path}/`)
  }
  const firstFile = t.nodes.find((n) => n.kind === 'file')
  if (firstFile) out.add(firstFile.path).add(`${firstFile.path}/x`)
  return [...out]
}

/**
 * Whether Go 1.19's EvalSymlinks takes a path where Go 1.23+ differs: after a relative
 * input follows an absolute link, 1.19 keeps an empty volume, so a ".." (or a relative
 * link) at the first component strips the leading "/" and the result turns relative.
 * (Go 1.23+ sets vol = "/" there.) A small re-walk of 1.19's steps, up to that point.
 */
function divergesFromGo119(path: GoString): boolean {
  if (path.startsWith('/')) return false
  let dest = ''
  let absFollowed = false
  let links = 0
  const lastSlash = () => dest.lastIndexOf('/')
  for (let start = 0, end = 0; start < path.length; start = end) {
    while (start < path.length && path[start] === '/') start++
    end = start
    while (end < path.length && path[end] !== '/') end++
    if (end === start) break
    const elem = path.slice(start, end)
    if (elem === '.') continue
    if (elem === '..') {
      const r = lastSlash()
      if (absFollowed && r === 0) return true
      if (r < 0 || dest.slice(r + 1) === '..') dest += dest.length > 0 ? '/..' : '..'
      else dest = dest.slice(0, r)
      continue
    }
    if (dest.length > 0 && !dest.endsWith('/')) dest += '/'
    dest += elem
    let st: ReturnType<typeof lstatSync>
    try {
      st = lstatSync(buf(dest))
    } catch {
      return false
    }
    if (!st.isSymbolicLink()) {
      if (!st.isDirectory() && end < path.length) return false
      continue
    }
    if (++links > 255) return false
    const link = readlinkSync(buf(dest), { encoding: 'buffer' }).toString('latin1')
    path = link + path.slice(end)
    if (link.startsWith('/')) {
      absFollowed = true
      dest = '/'
      end = 1
    } else {
      const r = lastSlash()
      if (absFollowed && r === 0) return true
      dest = r < 0 ? '' : dest.slice(0, r)
      end = 0
    }
  }
  return false
}

/** Both sides stop a walk after this many events (the Go side returns an error with this text). */
const WALK_LIMIT = 20000
const WALK_LIMIT_ERR = new ErrorString('harness: walk event limit reached')

async function compareTree(
  go: GoHarness,
  rand: Rand,
  t: Tree,
  em: Mismatches,
  wm: Mismatches,
): Promise<void> {
  const queries = evalQueries(rand, t)
  const roots = walkRoots(t)
  const answers = await go.call([
    ...queries.map((p) => ({ op: 'evalsymlinks', path: b64(p) })),
    ...roots.map((r) => ({ op: 'walk', root: b64(r), limit: WALK_LIMIT })),
  ])
  const old = go.goMinor > 0 && go.goMinor < 23
  queries.forEach((p, i) => {
    const a = answers[i]
    const want = { out: unb64(a.out), err: unb64OrNull(a.err) }
    const got = capture(() => {
      const r = evalSymlinks(p)
      return r.ok ? { out: r.value, err: null } : { out: '', err: r.err.error() }
    })
    if (showValue(want) !== showValue(got) && old && divergesFromGo119(p)) {
      em.tolerate(`EvalSymlinks(${show(p, 120)}): go1.19 ${showValue(want)}, ours ${showValue(got)}`)
    } else em.check(`EvalSymlinks(${show(p)})`, want, got)
  })
  roots.forEach((root, i) => {
    const a: Resp = answers[queries.length + i]
    const want = {
      events: (a.events as Resp[]).map((e) => ({
        path: unb64(e.path),
        err: unb64OrNull(e.err),
        isdir: e.isdir,
        mode: e.mode,
      })),
      err: unb64OrNull(a.err),
    }
    const got = capture(() => {
      const events: { path: GoString; err: GoString | null; isdir: boolean | null; mode: number | null }[] =
        []
      const err = walk(root, (path, info, e) => {
        events.push({
          path,
          err: e ? e.error() : null,
          isdir: info ? info.isDir() : null,
          mode: info ? info.mode : null,
        })
        return events.length >= WALK_LIMIT ? WALK_LIMIT_ERR : null
      })
      return { events, err: err ? err.error() : null }
    })
    wm.check(`Walk(${show(root)})`, want, got)
  })
}

test('filepath EvalSymlinks and Walk over generated trees', async (t) => {
  const go = await getHarness()
  if (!go) return t.skip(GO_MISSING)
  const seed = seedFor('filepath.trees')
  t.diagnostic(`${REPRODUCE} (category seed ${seed})`)
  const rand = new Rand(seed)
  const trees: Tree[] = []
  try {
    const em = new Mismatches('EvalSymlinks')
    const wm = new Mismatches('Walk')
    const fixed = fixedTree()
    trees.push(fixed)
    await compareTree(go, rand, fixed, em, wm)
    for (let i = 0; i < 4; i++) {
      const tree = randomTree(rand, `r${i}`)
      trees.push(tree)
      await compareTree(go, rand, tree, em, wm)
    }
    finish(t, [em, wm])
  } finally {
    for (const tree of trees) rmSync(buf(tree.root), { recursive: true, force: true })
  }
})

test('filepath.Abs under $PWD variants (os.Getwd)', async (t) => {
  const go = await getHarness()
  if (!go) return t.skip(GO_MISSING)
  const seed = seedFor('filepath.abs-pwd')
  t.diagnostic(`${REPRODUCE} (category seed ${seed})`)
  const rand = new Rand(seed)
  const tree = new Tree(newRoot('pwd'))
  const R = tree.root
  const real = tree.dir('real')
  tree.dir('other')
  tree.link('via_link', `${R}/real`)
  tree.link('via_rel_link', 'real')
  tree.link('via_chain', 'via_link/')
  const variants: [string, string | undefined][] = [
    ['PWD unset', undefined],
    ['PWD = cwd', real],
    ['PWD = symlink to cwd', `${R}/via_link`],
    ['PWD = relative symlink to cwd', `${R}/via_rel_link`],
    ['PWD = chain to cwd', `${R}/via_chain`],
    ['PWD with trailing slash', `${real}/`],
    ['PWD with ..', `${R}/other/../real`],
    ['PWD with //', `${R}//real`],
    ['PWD = other dir', `${R}/other`],
    ['PWD missing', `${R}/missing`],
    ['PWD relative', 'real'],
    ['PWD empty', ''],
    ['PWD = /', '/'],
  ]
  const inputs: GoString[] = [
    '',
    '.',
    '..',
    'x',
    '../x',
    'a/../../..',
    '/abs/../p',
    './/y/',
    '../../../../../..',
  ]
  for (let i = 0; i < 200; i++) inputs.push(randomPath(rand))
  const mm = new Mismatches('Abs under $PWD')
  const savedCwd = process.cwd()
  const savedPwd = process.env.PWD
  const setPwd = (pwd: string | undefined) => {
    if (pwd === undefined) delete process.env.PWD
    else process.env.PWD = pwd
  }
  try {
    // Both processes run in R/real; only $PWD varies.
    process.chdir(real)
    for (const [label, pwd] of variants) {
      const env = { ...process.env }
      if (pwd === undefined) delete env.PWD
      else env.PWD = pwd
      const h = new GoHarness({ cwd: real, env })
      try {
        const answers = await h.call(inputs.map((p) => ({ op: 'abs', path: b64(p) })))
        setPwd(pwd)
        inputs.forEach((p, i) => {
          const want = { out: unb64(answers[i].out), err: unb64OrNull(answers[i].err) }
          mm.check(
            `${label} (${show(pwd ?? '')}): Abs(${show(p)})`,
            want,
            capture(() => result(abs(p))),
          )
        })
      } finally {
        setPwd(savedPwd)
        h.close()
      }
    }
  } finally {
    process.chdir(savedCwd)
    setPwd(savedPwd)
    rmSync(buf(R), { recursive: true, force: true })
  }
  finish(t, [mm])
})

test('filepath.Walk past PATH_MAX, with and without the listing types', async (t) => {
  const go = await getHarness()
  if (!go) return t.skip(GO_MISSING)
  const R = realpathSync(mkdtempSync(`${tmpdir()}/go-walk-deep-`))
  const cwd = process.cwd()
  try {
    // Nested by relative steps; files beside the directory whose path passes 4096 bytes, and in it.
    process.chdir(R)
    const seg = 'e'.repeat(240)
    for (let k = 0; k < 18; k++) {
      mkdirSync(seg)
      writeFileSync('skill.json', '{}')
      process.chdir(seg)
    }
    writeFileSync('skill.json', '{}')
    process.chdir(cwd)
    const a = await go.one({ op: 'walk', root: b64(R), limit: WALK_LIMIT })
    const want = {
      events: (a.events as Resp[]).map((e) => ({
        path: unb64(e.path),
        err: unb64OrNull(e.err),
        isdir: e.isdir,
      })),
      err: unb64OrNull(a.err),
    }
    const wm = new Mismatches('Walk past PATH_MAX')
    for (const direntTypes of [false, true]) {
      const got = capture(() => {
        const events: { path: GoString; err: GoString | null; isdir: boolean | null }[] = []
        const err = walk(
          R,
          (path, info, e) => {
            events.push({ path, err: e ? e.error() : null, isdir: info ? info.isDir() : null })
            return null
          },
          { direntTypes },
        )
        return { events, err: err ? err.error() : null }
      })
      wm.check(`Walk(deep tree, direntTypes ${direntTypes})`, want, got)
    }
    finish(t, [wm])
  } finally {
    process.chdir(cwd)
    execFileSync('rm', ['-rf', R])
  }
})
