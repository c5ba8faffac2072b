import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { buildSubprocessSkill } from '../../src/core/build.js'
import { fromText } from '../../src/core/go/gostring.js'
import { parseManifest } from '../../src/core/manifest.js'
import { ECHO, makeTree, manifest, tempRoot } from '../helpers/tree.js'

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
