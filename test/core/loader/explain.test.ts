import assert from 'node:assert/strict'
import { resolve } from 'node:path'
import { test } from 'node:test'
import { alwaysHints, noToolsHints } from '../../../src/core/loader/explain.js'
import type { LoaderEvent, LoaderEventKind } from '../../../src/core/loader/loader.js'

const event = (kind: LoaderEventKind, path: string): LoaderEvent => ({
  kind,
  message: '',
  path,
  root: path,
  name: null,
  err: null,
})

test('said without --explain: a relative dir only, with its absolute path from here', () => {
  assert.deepEqual(alwaysHints(event('skip-non-absolute', 'rel/dir')), [
    `the manager only takes absolute dirs: use "${resolve('rel/dir')}".`,
  ])
  for (const kind of ['dir-not-present', 'registered', 'duplicate', 'parse-error'] as const)
    assert.deepEqual(alwaysHints(event(kind, '/abs')), [], kind)
})

test('why mcp serves no tool: relative dirs first, then nothing registered, then nothing offered', () => {
  assert.deepEqual(noToolsHints({ relative: ['a', 'b'], registered: 3, lines: [] }).length, 2)
  assert.match(
    noToolsHints({ relative: ['a'], registered: 0, lines: [] })[0],
    /^"a" is relative, .*\(from here, ".*\/a"\)$/,
  )
  assert.deepEqual(noToolsHints({ relative: [], registered: 0, lines: ['skill loader: parse …'] }), [
    'no skill registered from the dirs: see the loader lines above, or run load-dirs --explain on them',
  ])
  // The loader walked the dirs and found no skill.json: it says nothing, so no line is pointed at.
  assert.deepEqual(noToolsHints({ relative: [], registered: 0, lines: [] }), [
    'no skill registered from the dirs, and the loader said nothing: no skill.json was found under them',
  ])
  assert.deepEqual(noToolsHints({ relative: [], registered: 2, lines: [] }), [
    'none of the 2 skills registered is offered: see the lines above (--class names the classes to serve)',
  ])
})
