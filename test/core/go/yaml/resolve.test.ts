import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ResolveError, resolve } from '../../../../src/core/go/yaml/resolve.js'

describe('yaml.v3 resolve', () => {
  test('tags of plain scalars', () => {
    const tag = (s: string) => resolve('', s).tag
    assert.equal(tag(''), '!!null')
    assert.equal(tag('~'), '!!null')
    assert.equal(tag('Null'), '!!null')
    assert.equal(tag('true'), '!!bool')
    assert.equal(tag('yes'), '!!str')
    assert.equal(tag('on'), '!!str')
    assert.equal(tag('12'), '!!int')
    assert.equal(tag('-0x1F'), '!!int')
    assert.equal(tag('0o17'), '!!int')
    assert.equal(tag('0777'), '!!int')
    assert.equal(tag('1_000'), '!!int')
    assert.equal(tag('09'), '!!float')
    assert.equal(tag('1.0'), '!!float')
    assert.equal(tag('.5'), '!!float')
    assert.equal(tag('1e3'), '!!float')
    assert.equal(tag('.inf'), '!!float')
    assert.equal(tag('-.INF'), '!!float')
    assert.equal(tag('.nan'), '!!float')
    assert.equal(tag('2024-01-31'), '!!timestamp')
    assert.equal(tag('2024-02-30'), '!!str')
    assert.equal(tag('2001-12-14t21:59:43.10Z'), '!!timestamp')
    assert.equal(tag('18446744073709551615'), '!!int')
    assert.equal(tag('18446744073709551616'), '!!float')
    assert.equal(tag('hello'), '!!str')
    // the merge tag comes from the parser, not from resolve
    assert.equal(tag('<<'), '!!str')
  })
  test('explicit tags', () => {
    assert.equal(resolve('tag:yaml.org,2002:str', '12').tag, '!!str')
    assert.equal(resolve('!!float', '12').tag, '!!float')
    assert.throws(
      () => resolve('!!int', 'abc'),
      (e: Error) => e instanceof ResolveError && e.message === 'cannot decode !!str `abc` as a !!int',
    )
    assert.equal(resolve('!custom', 'x').tag, '!custom')
  })
})
