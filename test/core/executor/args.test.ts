import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ArgsError, assembleArgs, typedArg } from '../../../src/core/executor/args.js'

const schema = {
  type: 'object',
  properties: {
    n: { type: 'integer' },
    f: { type: 'number' },
    b: { type: 'boolean' },
    z: { type: 'null' },
    tags: { type: 'array' },
    o: { type: 'object' },
    s: { type: 'string' },
    u: { type: ['integer', 'string'] },
    nb: { type: ['number', 'boolean'] },
    untyped: { description: 'no type' },
  },
}

describe('typedArg', () => {
  test('values are typed by the property’s schema type', () => {
    assert.deepEqual(typedArg('n=3', schema), ['n', 3])
    assert.deepEqual(typedArg('n=-0', schema), ['n', -0])
    assert.deepEqual(typedArg('f=1.5', schema), ['f', 1.5])
    assert.deepEqual(typedArg('f=2', schema), ['f', 2])
    assert.deepEqual(typedArg('b=true', schema), ['b', true])
    assert.deepEqual(typedArg('b=false', schema), ['b', false])
    assert.deepEqual(typedArg('z=null', schema), ['z', null])
    assert.deepEqual(typedArg('tags=["a",1]', schema), ['tags', ['a', 1]])
    assert.deepEqual(typedArg('o={"k":{"x":1}}', schema), ['o', { k: { x: 1 } }])
  })
  test('strings stay strings, even when they look like JSON', () => {
    assert.deepEqual(typedArg('s=3', schema), ['s', '3'])
    assert.deepEqual(typedArg('s=true', schema), ['s', 'true'])
    assert.deepEqual(typedArg('s=', schema), ['s', ''])
  })
  test('unions: a fitting non-string type first, else a string when allowed', () => {
    assert.deepEqual(typedArg('u=7', schema), ['u', 7])
    assert.deepEqual(typedArg('u=7.5', schema), ['u', '7.5'])
    assert.deepEqual(typedArg('u=x', schema), ['u', 'x'])
    assert.deepEqual(typedArg('nb=true', schema), ['nb', true])
    assert.deepEqual(typedArg('nb=1e3', schema), ['nb', 1000])
  })
  test('keys the schema does not type, or no schema at all: strings', () => {
    assert.deepEqual(typedArg('untyped=3', schema), ['untyped', '3'])
    assert.deepEqual(typedArg('free=[1]', schema), ['free', '[1]'])
    assert.deepEqual(typedArg('n=3', undefined), ['n', '3'])
    assert.deepEqual(typedArg('n=3', null), ['n', '3'])
    assert.deepEqual(typedArg('n=3', { properties: 'x' }), ['n', '3'])
  })
  test('the value is everything after the first =', () => {
    assert.deepEqual(typedArg('s=a=b', schema), ['s', 'a=b'])
    assert.deepEqual(typedArg('q==', schema), ['q', '='])
  })
  test('errors: no key, no =, a value that does not fit', () => {
    assert.throws(() => typedArg('novalue', schema), new ArgsError('--arg "novalue": expected key=value'))
    assert.throws(() => typedArg('=v', schema), new ArgsError('--arg "=v": expected key=value'))
    assert.throws(() => typedArg('n=x', schema), new ArgsError('--arg n: "x" is not a valid integer'))
    assert.throws(() => typedArg('n=1.5', schema), new ArgsError('--arg n: "1.5" is not a valid integer'))
    assert.throws(() => typedArg('b=yes', schema), new ArgsError('--arg b: "yes" is not a valid boolean'))
    assert.throws(() => typedArg('tags={}', schema), new ArgsError('--arg tags: "{}" is not a valid array'))
    assert.throws(
      () => typedArg('nb=x', schema),
      new ArgsError('--arg nb: "x" is not a valid number or boolean'),
    )
  })
})

describe('assembleArgs', () => {
  test('no input at all: empty (the executor sends {})', () => {
    assert.equal(assembleArgs({ assignments: [], schema }), '')
  })
  test('--args bytes are kept verbatim when there is no --arg', () => {
    for (const json of ['{ "a" : 1 }\n', '[1]', 'null', '  ', '{', '"\xff"']) {
      assert.equal(assembleArgs({ json, assignments: [], schema }), json)
    }
  })
  test('--arg alone builds an object, in order', () => {
    assert.equal(
      assembleArgs({ assignments: ['n=3', 's=x', 'tags=["a"]'], schema }),
      '{"n":3,"s":"x","tags":["a"]}',
    )
  })
  test('--arg merges into the --args object; later wins', () => {
    assert.equal(
      assembleArgs({ json: '{"n":1,"keep":true}', assignments: ['n=2', 'n=3', 'new=v'], schema }),
      '{"n":3,"keep":true,"new":"v"}',
    )
    assert.equal(assembleArgs({ json: '  ', assignments: ['n=1'], schema }), '{"n":1}')
  })
  test('__proto__, constructor, prototype: keys like any other, alone or merged', () => {
    assert.equal(
      assembleArgs({ assignments: ['__proto__=x', 'constructor=1', 'prototype=p'], schema }),
      '{"__proto__":"x","constructor":"1","prototype":"p"}',
    )
    assert.equal(
      assembleArgs({ json: '{"__proto__":{"a":1}}', assignments: ['__proto__={}', 'k=2'], schema }),
      '{"__proto__":"{}","k":"2"}',
    )
    const typed = JSON.parse('{"properties":{"__proto__":{"type":"integer"}}}')
    assert.equal(assembleArgs({ assignments: ['__proto__=3'], schema: typed }), '{"__proto__":3}')
  })
  test('non-ASCII text comes out as UTF-8 bytes', () => {
    assert.equal(assembleArgs({ assignments: ['s=é'], schema }), Buffer.from('{"s":"é"}').toString('latin1'))
  })
  test('--arg cannot merge into invalid JSON or a non-object', () => {
    assert.throws(
      () => assembleArgs({ json: '{', assignments: ['n=1'], schema }),
      new ArgsError('--args is not valid JSON, so --arg cannot be merged into it'),
    )
    for (const json of ['[1]', 'null', '"x"', '3']) {
      assert.throws(
        () => assembleArgs({ json, assignments: ['n=1'], schema }),
        new ArgsError('--arg needs --args to be a JSON object'),
        json,
      )
    }
  })
  test('--args is blank as Go’s bytes.TrimSpace says: U+0085 is space, a lone 0xA0 byte is not', () => {
    // U+0085 (NEL) in UTF-8: the executor sends {} for such params, so --arg starts from {}.
    assert.equal(assembleArgs({ json: '\xc2\x85 ', assignments: ['n=1'], schema }), '{"n":1}')
    // 0xA0 alone is invalid UTF-8, not NBSP: not blank, and not JSON.
    assert.throws(
      () => assembleArgs({ json: '\xa0', assignments: ['n=1'], schema }),
      new ArgsError('--args is not valid JSON, so --arg cannot be merged into it'),
    )
  })
})
