import * as fs from 'node:fs'
import * as os from 'node:os'

/**
 * A temp dir with the odd-names tree that the os and filepath tests share. Names are
 * byte strings (latin1), so `\xff\xfe` is a name that is not valid UTF-8. The expected
 * values in the tests were produced by Go 1.19 over this same tree.
 */
export function makeFixture(): { root: string; cleanup: () => void } {
  // The tree sits one level down in a dir of its own: cases that climb above the root (`B/../../x`)
  // then meet only what this fixture made, never whatever the OS temp dir holds (a /tmp/x once).
  const outer = fs.realpathSync(fs.mkdtempSync(os.tmpdir() + '/go-os-fixture-'))
  const root = outer + '/root'
  fs.mkdirSync(root)
  const at = (p: string) => Buffer.from(root + '/' + p, 'latin1')
  const file = (p: string, content: string, mode = 0o644) => {
    fs.writeFileSync(at(p), content)
    fs.chmodSync(at(p), mode)
  }
  const dir = (p: string) => {
    fs.mkdirSync(at(p))
    fs.chmodSync(at(p), 0o755)
  }
  const link = (p: string, target: string) => fs.symlinkSync(Buffer.from(target, 'latin1'), at(p))
  fs.chmodSync(root, 0o755)

  dir('B')
  file('B/x', 'x')
  for (const n of FILE_NAMES) file(n, 'content of ' + n)
  file('exec.sh', '#!/bin/sh\n', 0o755)
  link('link-file', 'a')
  link('link-dir', 'B')
  link('dangling', 'nowhere')
  link('loop', 'loop')
  link('loop1', 'loop2')
  link('loop2', 'loop1')
  link('abs-link', '/nonexistent-abs')
  dir('sub')
  dir('sub/deeper')
  file('sub/deeper/file', 'deep')
  dir('sub/empty')
  dir('sub/\xff')
  file('sub/\xff/inner', 'i')
  // For EvalSymlinks.
  dir('real')
  file('real/file', 'f')
  dir('real/sub')
  link('l1', 'real')
  link('chain1', 'chain2')
  link('chain2', 'chain3')
  link('chain3', 'real/file')
  link('abs', root + '/real')
  link('self', 'self')
  link('dotdot', 'real/sub')
  link('file-link', 'real/file')
  link('up', '../' + root.slice(root.lastIndexOf('/') + 1) + '/real')
  link('slash', '/')
  link('top', root.slice(0, root.indexOf('/', 1)))
  link('trail', 'real/')
  link('dot-slash', './')
  return { root, cleanup: () => fs.rmSync(outer, { recursive: true, force: true }) }
}

export const FILE_NAMES = [
  'a',
  'a.txt',
  'skill.json',
  'skill.json.bak',
  'skill.json~',
  'name\nwith newline',
  'tab\there',
  'quote"s',
  "it's",
  '\xff\xfe',
  '\xc3\xa9',
  'Z',
  '_under',
  '-dash',
  '.hidden',
  'space name',
  'back\\slash',
]

/** Runs f with the process's cwd (and $PWD) set to dir. */
export function inDir<T>(dir: string, f: () => T): T {
  const cwd = process.cwd()
  const pwd = process.env.PWD
  process.chdir(Buffer.from(dir, 'latin1').toString())
  process.env.PWD = dir
  try {
    return f()
  } finally {
    process.chdir(cwd)
    if (pwd === undefined) delete process.env.PWD
    else process.env.PWD = pwd
  }
}
