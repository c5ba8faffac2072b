import assert from 'node:assert/strict'
import { mkdirSync, readdirSync, readFileSync, statSync, watch, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { startCli } from '../helpers/cli.js'
import { tempRoot } from '../helpers/tree.js'

// lint --fix writes each file through a temp file beside it: a stop signal that lands while it
// writes must leave no temp file in the pack (the next `marketplace pack` or the manager's
// install would see it), the run ends 128 + n without writing any further file (it used to write
// all of them, then check them again), and it says how many it wrote before the stop.

let R = ''
let cleanup = () => {}
before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-fix-signals-'))
})
after(() => cleanup())

const BOM = '\ufeff'
const SKILLS = 400

function makeSkills(dir: string): void {
  for (let i = 0; i < SKILLS; i++) {
    const d = join(dir, `s${i}`)
    mkdirSync(join(d, 'bin'), { recursive: true })
    writeFileSync(join(d, 'bin', 'r.sh'), '#!/bin/sh\necho {}\n', { mode: 0o755 })
    writeFileSync(
      join(d, 'skill.json'),
      `${BOM}${JSON.stringify({ name: `s${i}`, description: 'd', entry: 'bin/r.sh', timeout_seconds: 5 })}\n`,
    )
  }
}

describe('lint --fix: a stop signal while files are written', () => {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    test(`${signal} as the first temp file appears: exit ${code}, no temp file left, every file whole, nothing further written`, async () => {
      const dir = join(R, signal)
      makeSkills(dir)
      const madeMs = Math.max(...readdirSync(dir).map((s) => statSync(join(dir, s, 'skill.json')).mtimeMs))
      let sent = false
      const watcher = watch(dir, { recursive: true })
      const child = startCli(['lint', dir, '--fix'], {
        env: { CI: '1', NO_COLOR: '1' },
        cwd: R,
        stdin: 'ignore',
      })
      watcher.on('change', (_ev, name) => {
        if (!sent && String(name).endsWith('.ongrid-tmp')) {
          sent = true
          child.kill(signal)
        }
      })
      let stderr = ''
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString()
      })
      const limit = setTimeout(() => child.kill('SIGKILL'), 60_000)
      const r = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
        child.on('close', (c, s) => res({ code: c, signal: s })),
      )
      clearTimeout(limit)
      watcher.close()
      assert.ok(sent, 'no temp file was seen: the signal was never sent')
      assert.equal(r.signal, null, `killed by ${r.signal}: the signal was not held while writing`)
      assert.equal(r.code, code, stderr)
      const left: string[] = []
      for (const s of readdirSync(dir)) {
        for (const f of readdirSync(join(dir, s))) if (f.endsWith('.ongrid-tmp')) left.push(`${s}/${f}`)
        const text = readFileSync(join(dir, s, 'skill.json'), 'utf8')
        assert.equal(JSON.parse(text.replace(/^\ufeff/, '')).name, s)
      }
      assert.deepEqual(left, [])
      // Written: the files whose BOM is gone; the summary counts them, and the stop came long
      // before the last (one file at a time, the signal handled between two).
      const written = readdirSync(dir).filter(
        (s) => !readFileSync(join(dir, s, 'skill.json'), 'utf8').startsWith(BOM),
      ).length
      const m = new RegExp(
        `^ongrid-skill: stopped by ${signal}: fixed (\\d+) problems? in (\\d+) files?, nothing further written$`,
        'm',
      ).exec(stderr)
      assert.ok(m, stderr)
      assert.equal(Number(m[2]), written, stderr)
      assert.ok(written < SKILLS / 2, `${written} of ${SKILLS} files written after the signal`)
      assert.doesNotMatch(stderr, /validate after the fixes/)
      const touched = readdirSync(dir).filter((s) => statSync(join(dir, s, 'skill.json')).mtimeMs > madeMs)
      assert.equal(touched.length, written)
    })
  }
})
