/**
 * `lint --fix` on every fixable rule's bad examples, judged by Go itself: each skill.json, before
 * and after, goes through json.Unmarshal into the manager's SkillManifest (the harness in ./go).
 * A manifest the manager could not decode (a BOM, timeout_seconds as a string) decodes after the
 * fix; one it decoded keeps the same registry row once the manager's own defaults are applied to
 * both (class "" is "safe", env_allow names are trimmed): only what was implicit is made explicit.
 * SKILL.md files: the fixed one loads (our parse, itself checked against Go's yaml.v3 in
 * marketplace.test.ts) under the name the manager registered it under before.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { after, test } from 'node:test'
import { fromBuffer, type GoString } from '../../src/core/go/gostring.js'
import { writeExample } from '../../src/core/lint/example-fix.js'
import { RULES } from '../../src/core/lint/registry.js'
import { normalizeSnakeName, parseSkillMd } from '../../src/core/native/skill-md.js'
import { runCliSync } from '../helpers/cli.js'
import { tempRoot } from '../helpers/tree.js'
import { b64, closeHarness, GO_MISSING, getHarness, type Resp, unb64, unb64OrNull } from './harness.js'

after(closeHarness)

function files(dir: string, name: string): string[] {
  const out: string[] = []
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) out.push(...files(p, name))
    else if (e.isFile() && e.name === name) out.push(p)
  }
  return out.sort()
}

/** The registry row of a decoded manifest, the manager's defaults applied (null when it did not decode). */
function row(r: Resp) {
  if (unb64OrNull(r.err) !== null) return null
  return {
    name: unb64(r.name),
    description: unb64(r.description),
    schema: unb64OrNull(r.schema),
    entry: unb64(r.entry),
    env_allow: r.env_allow === null ? null : (r.env_allow as string[]).map((e) => unb64(e).trim()),
    timeout_seconds: r.timeout_seconds,
    class: unb64(r.class) === '' ? 'safe' : unb64(r.class),
    category: unb64(r.category),
  }
}

test('lint --fix on every fixable example: Go decodes what it refused, and keeps each registry row', async (t) => {
  const go = await getHarness()
  if (!go) return t.skip(GO_MISSING)
  const { root, cleanup } = tempRoot()
  try {
    let n = 0
    let judged = 0
    for (const rule of RULES.filter((r) => r.fixable)) {
      for (const e of rule.examples.bad) {
        const dir = `${root}/e${n++}`
        writeExample(dir, e)
        const where = `${rule.id} example in ${dir}`
        const manifests = files(dir, 'skill.json')
        const natives = files(dir, 'SKILL.md')
        const read = (p: string): GoString => fromBuffer(readFileSync(p))
        const before = manifests.map(read)
        const nativeBefore = natives.map((p) => parseSkillMd(p as GoString))
        const r = runCliSync(['lint', e.path ?? 'skills', '--fix'], { cwd: dir })
        assert.ok(r.code === 0 || r.code === 1, `${where}: ${r.stderr}`)
        const afterText = manifests.map(read)
        const answers = await go.call(
          [...before, ...afterText].map((d) => ({ op: 'unmarshal', data: b64(d) })),
        )
        for (const [i, p] of manifests.entries()) {
          const was = row(answers[i])
          const now = row(answers[manifests.length + i])
          // A manifest Go refused and --fix left as it was: no fix was offered (a syntax error).
          if (was === null && afterText[i] === before[i]) continue
          assert.notEqual(
            now,
            null,
            `${where}: ${p} does not decode after --fix: ${unb64OrNull(answers[manifests.length + i].err)}`,
          )
          if (was !== null) assert.deepEqual(now, was, `${where}: ${p}'s registry row changed`)
          judged++
        }
        for (const [i, p] of natives.entries()) {
          const now = parseSkillMd(p as GoString)
          assert.equal(now.error, null, `${where}: ${p} does not load after --fix`)
          const was = nativeBefore[i]
          const name = (x: typeof now) => {
            const v = x.skill?.get('name')
            return v?.k === 'string' ? normalizeSnakeName(v.value) : null
          }
          if (was.error === null)
            assert.equal(name(now), name(was), `${where}: ${p} registers under another name`)
          assert.deepEqual(
            now.warnings.filter((w) => w.code === 'name_normalized'),
            [],
          )
          judged++
        }
        // The entries' fixes: a mode one gives the execute bit.
        if (rule.fixable === 'mode')
          for (const p of files(dir, 'run.sh')) assert.notEqual(statSync(p).mode & 0o100, 0, `${where}: ${p}`)
      }
    }
    t.diagnostic(`${judged} files judged`)
    assert.ok(judged >= 8)
  } finally {
    cleanup()
  }
})
