import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { InitResult } from '../../../src/core/init/init.js'
import type { Template } from '../../../src/core/init/templates.js'
import { initSummary } from '../../../src/ui/init/summary.js'

describe('init summary on a terminal', () => {
  // A --template DIR whose files/ hold names with escapes and a newline.
  const result: InitResult = {
    dir: '/w/p',
    entry: 'run\x1b]0;t\x07.sh',
    written: ['run\x1b]0;t\x07.sh', 'a\n  + forged'],
    kept: [],
    skipped: [],
    build: null,
    entryPresent: true,
    warnings: [],
  }
  const template = { name: 'x\x1b[2J', build: null } as unknown as Template
  test('names from the template escaped as %q would, a newline included; raw off a terminal', () => {
    const on = initSummary(result, template, ['cd p'], '/w', true)
    assert.ok(!on.includes('\x1b'), JSON.stringify(on))
    assert.ok(!on.split('\n').some((l) => l.trimStart().startsWith('+ forged')), on)
    assert.ok(on.startsWith('Created p/ from the x\\x1b[2J template:\n'), on)
    assert.match(on, /\+ run\\x1b\]0;t\\a\.sh {2}the entry, executable\n/)
    assert.ok(on.includes('a\\n  + forged'), on)
    const off = initSummary(result, template, ['cd p'], '/w')
    assert.ok(off.includes('run\x1b]0;t\x07.sh') && off.includes('a\n  + forged'), JSON.stringify(off))
  })
})
