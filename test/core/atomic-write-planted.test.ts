import assert from 'node:assert/strict'
import * as fs from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { writeFileAtomic } from '../../src/core/atomic-write.js'
import { tempRoot } from '../helpers/tree.js'

// The temp name is random, but its creation must also be exclusive and refuse a symlink: a name
// that someone managed to plant (a symlink to a file of the user's, or a file of their own) is
// never opened, let alone written through; another name is drawn.

const { root, cleanup } = tempRoot('ongrid-atomic-planted-')
after(cleanup)

for (const planted of ['a symlink to another file', 'a file of someone else'] as const) {
  test(`${planted} at the very temp name drawn: not written through, another name used`, () => {
    const dir = join(root, planted.replaceAll(' ', '-'))
    fs.mkdirSync(dir)
    const victim = join(root, `${dir.slice(root.length + 1)}.victim`)
    fs.writeFileSync(victim, 'keep me\n')
    const target = join(dir, 'signature.json')
    const tried: string[] = []
    const r = writeFileAtomic(target, 'new bytes\n', {
      ops: {
        open: (p, flags, mode) => {
          tried.push(p)
          // The first name drawn is taken by the time it is opened.
          if (tried.length === 1) {
            if (planted === 'a symlink to another file') fs.symlinkSync(victim, p)
            else fs.writeFileSync(p, 'theirs\n')
          }
          return fs.openSync(p, flags, mode)
        },
      },
    })
    assert.deepEqual(r, { written: true, inPlace: false })
    assert.equal(fs.readFileSync(victim, 'utf8'), 'keep me\n')
    assert.equal(fs.readFileSync(target, 'utf8'), 'new bytes\n')
    assert.ok(!fs.lstatSync(target).isSymbolicLink())
    assert.equal(tried.length, 2, 'a second name is drawn')
    assert.notEqual(tried[0], tried[1])
    // What was planted is left as it was; nothing of ours is left beside it.
    const first = tried[0] as string
    if (planted === 'a symlink to another file') assert.equal(fs.readlinkSync(first), victim)
    else assert.equal(fs.readFileSync(first, 'utf8'), 'theirs\n')
    assert.deepEqual(fs.readdirSync(dir).sort(), [first.slice(dir.length + 1), 'signature.json'].sort())
  })
}
