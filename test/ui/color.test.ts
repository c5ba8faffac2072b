import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { colorWanted, forcedLevel } from '../../src/ui/color.js'

describe('the colour policy (ui/color.ts)', () => {
  test('NO_COLOR wins over FORCE_COLOR; FORCE_COLOR over the terminal; a terminal not dumb', () => {
    assert.equal(colorWanted({ NO_COLOR: '1', FORCE_COLOR: '1' }, true), false)
    assert.equal(colorWanted({ NO_COLOR: '', FORCE_COLOR: '1' }, false), true)
    assert.equal(colorWanted({ FORCE_COLOR: '0' }, true), false)
    assert.equal(colorWanted({ FORCE_COLOR: 'false' }, true), false)
    assert.equal(colorWanted({ FORCE_COLOR: '' }, false), true)
    assert.equal(colorWanted({}, true), true)
    assert.equal(colorWanted({ TERM: 'dumb' }, true), false)
    assert.equal(colorWanted({}, false), false)
  })

  test("FORCE_COLOR's level", () => {
    assert.equal(forcedLevel({}), null)
    assert.equal(forcedLevel({ FORCE_COLOR: '0' }), null)
    assert.equal(forcedLevel({ FORCE_COLOR: 'false' }), null)
    assert.equal(forcedLevel({ FORCE_COLOR: '' }), 1)
    assert.equal(forcedLevel({ FORCE_COLOR: 'true' }), 1)
    assert.equal(forcedLevel({ FORCE_COLOR: '2' }), 2)
    assert.equal(forcedLevel({ FORCE_COLOR: '9' }), 3)
    assert.equal(forcedLevel({ FORCE_COLOR: 'yes' }), 1)
  })
})
