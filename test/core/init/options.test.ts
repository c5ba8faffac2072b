import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import {
  defaultDir,
  defaultTimeoutSeconds,
  descriptionNote,
  descriptionProblem,
  nameProblem,
  parseEnvAllow,
  parseTimeout,
  timeoutNote,
} from '../../../src/core/init/options.js'

describe('init options', () => {
  test('names: the loader’s rule and message', () => {
    assert.equal(nameProblem('check_port'), null)
    assert.equal(nameProblem(''), 'name required')
    assert.equal(nameProblem('Foo'), 'name "Foo" must be lower_snake [a-z0-9_]')
    assert.equal(nameProblem('check-port'), 'name "check-port" must be lower_snake [a-z0-9_]')
    assert.equal(nameProblem('caf\u00e9'), 'name "café" must be lower_snake [a-z0-9_]')
    assert.equal(nameProblem('a\nb'), 'name "a\\nb" must be lower_snake [a-z0-9_]')
  })

  test('names a builtin skill holds are refused', () => {
    assert.match(
      nameProblem('web_search') ?? '',
      /^name "web_search" is taken by a builtin skill of the manager/,
    )
    assert.match(nameProblem('host_probe_tcp') ?? '', /already registered/)
  })

  test('the dir is the name with _ turned into -', () => {
    assert.equal(defaultDir('check_port_v2'), 'check-port-v2')
  })

  test('description: required, and lint’s length rule as a note', () => {
    assert.equal(descriptionProblem(' \t'), 'description required')
    assert.equal(descriptionProblem('x'), null)
    assert.match(descriptionNote('short') ?? '', /^5 characters: lint wants at least 20/)
    assert.equal(descriptionNote('Check whether a TCP port accepts connections.'), null)
  })

  test('timeouts: Go durations or bare seconds, whole seconds from 1 to a day; defaults within the LLM deadline for safe skills', () => {
    assert.deepEqual(parseTimeout(' 15 '), { ok: true, value: 15 })
    assert.deepEqual(parseTimeout('90s'), { ok: true, value: 90 })
    assert.deepEqual(parseTimeout('1m30s'), { ok: true, value: 90 })
    assert.deepEqual(parseTimeout('24h'), { ok: true, value: 86400 })
    assert.deepEqual(parseTimeout('1500ms'), {
      ok: false,
      problem: 'must be whole seconds from 1 to 86400 (1s to 24h), not "1500ms"',
    })
    for (const bad of ['0', '1.5', '500ms', '86401', '9999999', '25h']) {
      const r = parseTimeout(bad)
      assert.equal(r.ok, false, bad)
      if (!r.ok) assert.match(r.problem, /^must be whole seconds from 1 to 86400 \(1s to 24h\), not /)
    }
    // What Go's time.ParseDuration rejects is reported in its words.
    assert.deepEqual(parseTimeout('abc'), { ok: false, problem: 'time: invalid duration "abc"' })
    assert.deepEqual(parseTimeout('-1'), { ok: false, problem: 'time: missing unit in duration "-1"' })
    for (const bad of ['1e2', '']) assert.equal(parseTimeout(bad).ok, false, bad)
    assert.equal(defaultTimeoutSeconds('safe'), 15)
    assert.equal(defaultTimeoutSeconds('mutating'), 30)
    assert.equal(timeoutNote(15, 'safe'), null)
    assert.match(timeoutNote(30, 'safe') ?? '', /cuts each LLM tool call at 15 s/)
    assert.equal(timeoutNote(30, 'mutating'), null)
    assert.match(timeoutNote(301, 'mutating') ?? '', /above 5 minutes/)
  })

  test('env_allow: names split on commas and blanks, deduplicated', () => {
    assert.deepEqual(parseEnvAllow('PATH, HOME,,PATH  LANG'), { ok: true, value: ['PATH', 'HOME', 'LANG'] })
    assert.deepEqual(parseEnvAllow(''), { ok: true, value: [] })
    assert.deepEqual(parseEnvAllow('PATH,A-B'), {
      ok: false,
      problem: '"A-B" is not an environment variable name ([A-Za-z_][A-Za-z0-9_]*)',
    })
  })
})
