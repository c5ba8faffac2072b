// What the marketplace commands write and read, when someone or something got there first:
// planted temp names, full and read-only filesystems, FIFOs and endless devices as inputs, stop
// signals and kill -9 during an archive's extraction. Exit 2 with one line, never 70, never a
// hang; nothing of ours left behind.
import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { gzipSync } from 'node:zlib'
import { tarBytes } from '../../src/core/marketplace/archive-write.js'
import { reapStale } from '../../src/core/marketplace/scratch.js'
import { runCliSync, startCli } from '../helpers/cli.js'
import { STOP_SIGNALS } from '../helpers/signals.js'
import { makeTree, tempRoot } from '../helpers/tree.js'
import { until } from '../helpers/until.js'

const SKILL = '---\nname: hello\ndescription: Says hello.\n---\nHi\n'
const PACK = {
  '.claude-plugin/plugin.json': '{"id":"demo","version":"1.0.0"}',
  'skills/hello/SKILL.md': SKILL,
}
const isRoot = process.getuid?.() === 0

/** Every run bounded: a hang is a failure, not a stuck suite. */
const cli = (args: string[]) => {
  const r = runCliSync(args, { timeoutMs: 20_000 })
  assert.equal(r.hung, false, `hung: ${args.join(' ')}`)
  return r
}

/** One line on stderr, exit 2, no stack and no Node text. */
function oneLine(r: { code: number | null; stderr: string }, re: RegExp): void {
  assert.equal(r.code, 2, r.stderr)
  assert.match(r.stderr, /^ongrid-skill: [^\n]*\n$/)
  assert.match(r.stderr, re)
}

let R = ''
let cleanup = () => {}
before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-mp-files-'))
})
after(() => cleanup())
let n = 0
const pack = (nodes: Parameters<typeof makeTree>[1] = PACK) => {
  const dir = join(R, `p${n++}`)
  makeTree(dir, nodes)
  return dir
}
let keyPath = ''
const key = () => {
  if (keyPath === '') {
    keyPath = join(R, 'k.pem')
    assert.equal(cli(['marketplace', 'keygen', '--out', keyPath]).code, 0)
  }
  return keyPath
}

/** A tmpfs of `size` at a fresh dir (root only; skipped where mount is refused). */
function tmpfs(t: { skip: (why: string) => void }, size: string, prepare?: (dir: string) => void) {
  const dir = join(R, `fs${n++}`)
  mkdirSync(dir)
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' })
  } catch {
    t.skip('cannot mount a tmpfs here')
    return null
  }
  prepare?.(dir)
  return {
    dir,
    readOnly: () => execFileSync('mount', ['-o', 'remount,ro', dir]),
    done: () => execFileSync('umount', [dir]),
  }
}

/** Fills a filesystem to the last block. */
function fill(dir: string): void {
  const chunk = Buffer.alloc(4096)
  try {
    for (let i = 0; ; i++) writeFileSync(join(dir, `fill${i}`), chunk)
  } catch {}
  try {
    for (let i = 0; ; i++) writeFileSync(join(dir, `small${i}`), 'x')
  } catch {}
}

describe('marketplace sign and pack: what they write', () => {
  test('sign and pack: a symlink planted at the old temp names (NAME.tmp-PID) is not written through', () => {
    const dir = pack()
    const victim = join(R, 'victim')
    writeFileSync(victim, 'precious')
    const out = join(R, 'planted.tar.gz')
    // The shell's pid is the CLI's (exec): the links sit at the very names the old writers used.
    const plant = (more: string) => ({
      sh: `ln -s '${victim}' '${dir}/signature.json.tmp-'$$ && ln -s '${victim}' '${out}.tmp-'$$'.tar.gz' && ${more}exec "$0" "$@"`,
      timeoutMs: 20_000,
    })
    let r = runCliSync(['marketplace', 'sign', dir, '--key', key()], plant(''))
    assert.equal(r.code, 0, r.stderr)
    assert.equal(readFileSync(victim, 'utf8'), 'precious')
    assert.ok(lstatSync(join(dir, 'signature.json')).isFile())
    const planted = readdirSync(dir).filter((x) => x.startsWith('signature.json.tmp-'))
    assert.equal(planted.length, 1)
    unlinkSync(join(dir, planted[0]))
    for (const x of readdirSync(R).filter((x) => x.startsWith('planted.tar.gz.tmp-'))) unlinkSync(join(R, x))
    r = runCliSync(['marketplace', 'pack', dir, '-o', out], plant(''))
    assert.equal(r.code, 0, r.stderr)
    assert.equal(readFileSync(victim, 'utf8'), 'precious')
    assert.ok(lstatSync(out).isFile())
    assert.deepEqual(
      readdirSync(dir).sort(),
      ['.claude-plugin', 'signature.json', 'skills']
        .concat(readdirSync(dir).filter((x) => x.startsWith('signature.json.tmp-')))
        .sort(),
    )
  })

  test('sign on a full filesystem: one line, exit 2, no temp file in the pack', {
    skip: !isRoot && 'needs root (mount)',
  }, (t) => {
    const fs = tmpfs(t, '64k', (d) => makeTree(join(d, 'pack'), PACK))
    if (fs === null) return
    try {
      fill(fs.dir)
      const before = readdirSync(join(fs.dir, 'pack')).sort()
      oneLine(
        cli(['marketplace', 'sign', join(fs.dir, 'pack'), '--key', key()]),
        /^ongrid-skill: cannot write .*\/pack\/signature\.json: no space left on device\n$/,
      )
      assert.deepEqual(readdirSync(join(fs.dir, 'pack')).sort(), before)
    } finally {
      fs.done()
    }
  })

  test('sign and pack on a read-only filesystem: one line, exit 2', {
    skip: !isRoot && 'needs root (mount)',
  }, (t) => {
    const fs = tmpfs(t, '1m', (d) => makeTree(join(d, 'pack'), PACK))
    if (fs === null) return
    try {
      fs.readOnly()
      oneLine(
        cli(['marketplace', 'sign', join(fs.dir, 'pack'), '--key', key()]),
        /cannot write .*\/signature\.json: read-only file system\n$/,
      )
      oneLine(
        cli(['marketplace', 'pack', pack(), '-o', join(fs.dir, 'demo.tar.gz')]),
        /cannot write .*\/demo\.tar\.gz: read-only file system\n$/,
      )
    } finally {
      fs.done()
    }
  })

  test('pack to a full filesystem: one line, exit 2, no temp file left', {
    skip: !isRoot && 'needs root (mount)',
  }, (t) => {
    const src = pack()
    // Bytes gzip cannot shrink: the archive needs more than the filesystem has.
    writeFileSync(join(src, 'blob.bin'), randomBytes(200_000))
    const fs = tmpfs(t, '64k')
    if (fs === null) return
    try {
      oneLine(
        cli(['marketplace', 'pack', src, '-o', join(fs.dir, 'demo.tar.gz')]),
        /^ongrid-skill: cannot write .*\/demo\.tar\.gz: no space left on device\n$/,
      )
      assert.deepEqual(readdirSync(fs.dir), [])
    } finally {
      fs.done()
    }
  })

  test('pack -o without the format’s suffix: one line, exit 2, nothing written', () => {
    const src = pack()
    for (const [args, re] of [
      [['-o', join(R, 'demo')], /-o .*\/demo: the name must end in \.tar\.gz or \.tgz/],
      [['-o', join(R, 'demo.zip')], /the name must end in \.tar\.gz or \.tgz/],
      [['--format', 'zip', '-o', join(R, 'demo.tar.gz')], /the name must end in \.zip/],
      [['-o', '/dev/full', '--force'], /-o \/dev\/full: the name must end in/],
    ] as const) {
      oneLine(cli(['marketplace', 'pack', src, ...args]), re)
    }
    assert.ok(!existsSync(join(R, 'demo')))
  })

  test('pack --force over a symlink or a device is refused; the link’s target is kept', () => {
    const src = pack()
    const victim = join(R, 'victim.tar.gz')
    writeFileSync(victim, 'precious')
    const link = join(R, 'link.tar.gz')
    symlinkSync(victim, link)
    oneLine(cli(['marketplace', 'pack', src, '-o', link, '--force']), /: it is a symlink\n$/)
    assert.equal(readFileSync(victim, 'utf8'), 'precious')
  })

  test('pack never ships a temp file a writer left (ours, or signature.json.tmp-PID)', () => {
    const src = pack({
      ...PACK,
      'signature.json.tmp-4242': '',
      'skills/hello/.SKILL.md.0123456789ab.ongrid-tmp': 'half',
    })
    const out = join(R, `shipped${n++}.tar.gz`)
    const r = cli(['marketplace', 'pack', src, '-o', out])
    assert.equal(r.code, 0, r.stderr)
    assert.match(
      r.stdout,
      /left out: signature\.json\.tmp-4242, skills\/hello\/\.SKILL\.md\.0123456789ab\.ongrid-tmp\n/,
    )
    const list = spawnSync('tar', ['tzf', out], { encoding: 'utf8' }).stdout
    assert.doesNotMatch(list, /tmp/)
  })

  test('keygen that cannot write its files leaves none', { skip: !isRoot && 'needs root (mount)' }, (t) => {
    const fs = tmpfs(t, '64k')
    if (fs === null) return
    try {
      fill(fs.dir)
      const before = readdirSync(fs.dir).length
      oneLine(cli(['marketplace', 'keygen', '--out', join(fs.dir, 'k.pem')]), /no space left on device\n$/)
      assert.equal(readdirSync(fs.dir).length, before)
      assert.ok(!existsSync(join(fs.dir, 'k.pem')))
    } finally {
      fs.done()
    }
  })
})

describe('marketplace inputs that block or do not end: one line, exit 2', () => {
  const fifo = () => {
    const p = join(R, `fifo${n++}`)
    execFileSync('mkfifo', [p])
    return p
  }

  test('--key and --pinned-key: a FIFO, /dev/zero, a file over 1 MiB', () => {
    const dir = pack()
    const big = join(R, 'big.pem')
    writeFileSync(big, '')
    truncateSync(big, 1024 * 1024 + 1)
    for (const bad of [fifo(), '/dev/zero']) {
      oneLine(
        cli(['marketplace', 'sign', dir, '--key', bad]),
        /^ongrid-skill: --key .*: not a regular file\n$/,
      )
      oneLine(
        cli(['marketplace', 'verify', dir, '--pinned-key', bad]),
        /^ongrid-skill: --pinned-key .*: not a regular file\n$/,
      )
    }
    oneLine(cli(['marketplace', 'sign', dir, '--key', big]), /--key .*big\.pem: larger than 1 MiB\n$/)
    oneLine(
      cli(['marketplace', 'check', dir, '--pinned-key', big]),
      /--pinned-key .*big\.pem: larger than 1 MiB\n$/,
    )
  })

  test('an archive that is a FIFO or a device', () => {
    for (const bad of [fifo(), '/dev/zero']) {
      for (const cmd of ['check', 'verify'])
        oneLine(cli(['marketplace', cmd, bad]), /: not a regular file or directory \(a FIFO or device\)/)
    }
  })

  test('pack files: signature.json, the manifest, SKILL.md, an agent, a hashed file as a FIFO or a device', () => {
    const cases: [string, string, string[]][] = [
      ['signature.json', 'fifo', ['verify', 'check']],
      ['signature.json', '/dev/zero', ['verify', 'check']],
      ['.claude-plugin/plugin.json', 'fifo', ['check']],
      ['skills/hello/SKILL.md', 'fifo', ['check']],
      ['agents/helper.md', 'fifo', ['check']],
    ]
    for (const [rel, what, cmds] of cases) {
      const dir = pack({ ...PACK, 'agents/.keep': '' })
      const p = join(dir, rel)
      try {
        unlinkSync(p)
      } catch {}
      if (what === 'fifo') execFileSync('mkfifo', [p])
      else symlinkSync(what, p)
      for (const cmd of cmds) {
        const args = cmd === 'sign' ? ['marketplace', cmd, dir, '--key', key()] : ['marketplace', cmd, dir]
        oneLine(cli(args), new RegExp(`${rel.replace(/\./g, '\\.')}: not a regular file \\(a FIFO or device`))
      }
    }
  })

  test('a pack file over 64 MiB is not read', () => {
    const dir = pack()
    truncateSync(join(dir, 'skills/hello/SKILL.md'), 64 * 1024 * 1024 + 1)
    oneLine(cli(['marketplace', 'check', dir]), /SKILL\.md: larger than 64 MiB; not checked\n$/)
    const other = pack()
    writeFileSync(join(other, 'notes.md'), '')
    truncateSync(join(other, 'notes.md'), 64 * 1024 * 1024 + 1)
    oneLine(
      cli(['marketplace', 'sign', other, '--key', key()]),
      /notes\.md: larger than 64 MiB; not checked\n$/,
    )
  })
})

describe('marketplace check ARCHIVE: the extraction is removed whatever happens', () => {
  let archive = ''
  before(async () => {
    // Enough small files that the extraction is still running when the signal comes.
    const entries = [
      { rel: '.claude-plugin', dir: true, mode: 0o755 },
      { rel: '.claude-plugin/plugin.json', dir: false, mode: 0o644, data: Buffer.from('{"id":"many"}') },
      { rel: 'files', dir: true, mode: 0o755 },
      ...Array.from({ length: 60_000 }, (_, i) => ({
        rel: `files/f${i}.txt`,
        dir: false,
        mode: 0o644,
        data: Buffer.from('x'),
      })),
    ]
    archive = join(R, 'many.tar.gz')
    writeFileSync(archive, gzipSync(await tarBytes('many', entries), { level: 1 }))
  })
  const scratchOf = (pid: number) =>
    ['/dev/shm', process.env.TMPDIR ?? '/tmp']
      .filter((d) => existsSync(d))
      .flatMap((d) =>
        readdirSync(d)
          .filter((x) => x.startsWith(`ongrid-skill-${pid}-`))
          .map((x) => join(d, x)),
      )

  for (const [signal, code] of STOP_SIGNALS) {
    test(`${signal} during the extraction: exit ${code}, the scratch dir removed`, async () => {
      const child = startCli(['marketplace', 'check', archive])
      const pid = child.pid as number
      await until('the extraction started', () => scratchOf(pid).length > 0)
      child.kill(signal)
      const exit = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)))
      assert.equal(exit, code)
      assert.deepEqual(scratchOf(pid), [])
    })
  }

  test('pack stopped while it checks its staged archive: exit 130, neither the temp file nor the extraction left', async () => {
    const src = join(R, `many${n++}`)
    mkdirSync(src)
    execFileSync('tar', ['xzf', archive, '-C', src])
    const outDir = join(R, `out${n++}`)
    mkdirSync(outDir)
    const child = startCli(['marketplace', 'pack', join(src, 'many'), '-o', join(outDir, 'many.tar.gz')])
    const pid = child.pid as number
    await until(
      'the archive is staged and being checked',
      () => readdirSync(outDir).length > 0 && scratchOf(pid).length > 0,
    )
    child.kill('SIGINT')
    const exit = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)))
    assert.equal(exit, 130)
    assert.deepEqual(readdirSync(outDir), [])
    assert.deepEqual(scratchOf(pid), [])
  })

  test('after a kill -9 the next extraction removes the dead run’s dir', async () => {
    const child = startCli(['marketplace', 'check', archive])
    const pid = child.pid as number
    await until('the extraction started', () => scratchOf(pid).length > 0)
    child.kill('SIGKILL')
    await new Promise((resolve) => child.on('close', resolve))
    const left = scratchOf(pid)
    assert.equal(left.length, 1)
    const small = join(R, 'small.tar.gz')
    writeFileSync(
      small,
      gzipSync(
        await tarBytes('small', [
          { rel: '.claude-plugin', dir: true, mode: 0o755 },
          { rel: '.claude-plugin/plugin.json', dir: false, mode: 0o644, data: Buffer.from('{"id":"small"}') },
        ]),
      ),
    )
    assert.equal(cli(['marketplace', 'check', small]).code, 0)
    assert.deepEqual(scratchOf(pid), [])
  })
})

describe('reapStale', () => {
  test('removes the dirs of ended processes only, and only ours by name', () => {
    const place = join(R, `place${n++}`)
    mkdirSync(place)
    const ended = spawnSync(process.execPath, ['-e', '0']).pid as number
    for (const name of [
      `ongrid-skill-${ended}-abc123`,
      `ongrid-skill-${process.pid}-abc123`,
      `ongrid-skill-1-abc123`,
      `ongrid-skill-${ended}-toolongname`,
      'other',
    ])
      mkdirSync(join(place, name))
    assert.deepEqual(reapStale(place), [join(place, `ongrid-skill-${ended}-abc123`)])
    assert.deepEqual(
      readdirSync(place).sort(),
      [
        `ongrid-skill-1-abc123`,
        `ongrid-skill-${ended}-toolongname`,
        `ongrid-skill-${process.pid}-abc123`,
        'other',
      ].sort(),
    )
  })
})
