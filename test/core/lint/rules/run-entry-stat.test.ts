import assert from 'node:assert/strict'
import { test } from 'node:test'
import { entryProblem } from '../../../../src/core/lint/entry.js'
import rule from '../../../../src/core/lint/rules/run-entry-stat.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK } from './fixtures.js'

// Not reachable through the loader short of a race (EvalSymlinks just lstat'ed the same path):
// no invalid tree; the executor's stat is tested on its own.
ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [],
})

test('run/entry-stat: the executor’s stat of an entry that vanished after loading', () => {
  assert.deepEqual(entryProblem('k', '/no/such/run.sh'), {
    kind: 'stat',
    message: 'subprocess skill: stat /no/such/run.sh: stat /no/such/run.sh: no such file or directory',
  })
})
