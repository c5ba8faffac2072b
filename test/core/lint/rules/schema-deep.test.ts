/**
 * Every rule that reads the schema judges it at any depth the manager's decoder accepts (Go's
 * 10000 levels): a finding at the deepest subschema of `items`, `properties`, `anyOf` and a mix
 * of them, 1001, 5000 and 9990 levels down, is reported where it is.
 */
import additionalProperties from '../../../../src/core/lint/rules/schema-additional-properties.js'
import duplicateKey from '../../../../src/core/lint/rules/schema-duplicate-key.js'
import propertyDescription from '../../../../src/core/lint/rules/schema-property-description.js'
import redosPattern from '../../../../src/core/lint/rules/schema-redos-pattern.js'
import requiredUnknown from '../../../../src/core/lint/rules/schema-required-unknown.js'
import { SCHEMA_LEVELS, type SchemaLevelKind } from '../../../helpers/deep-schema.js'
import { ECHO } from '../../../helpers/tree.js'
import { type InvalidCase, ruleTester } from '../rule-tester.js'
import { pack } from './fixtures.js'

const LEVELS = SCHEMA_LEVELS
type Kind = SchemaLevelKind

/** What the deepest subschema gets wrong: an undescribed property, no additionalProperties decision, an unknown required name, a ReDoS pattern written twice. */
const LEAF =
  '{"type":"object","description":"d","required":["leaf","ghost"],"properties":{"leaf":{"type":"string","pattern":"^(a+)+$","pattern":"^(a+)+$"}}}'

interface Deep {
  name: string
  text: string
  /** JSON pointer of the leaf subschema. */
  pointer: string
  /** Column (1-based) of the first occurrence of a needle at or after the leaf. */
  col: (needle: string, nth?: number) => number
}

/** skill.json whose schema nests about `depth` levels: `kinds` in turn around LEAF, under property `a`. */
function deep(kinds: Kind[], depth: number): Deep {
  // The schema and its `properties` are two levels, LEAF three.
  let budget = depth - 5
  const opens: string[] = []
  const closes: string[] = []
  let pointer = '/properties/a'
  for (let i = 0; ; i++) {
    const k = LEVELS[kinds[i % kinds.length]]
    if (k.levels > budget) break
    budget -= k.levels
    opens.push(k.open)
    closes.push(k.close)
    pointer += k.step
  }
  const inner = `${opens.join('')}${LEAF}${closes.reverse().join('')}`
  const text = pack({
    schema: { type: 'object', additionalProperties: false, properties: { a: '@' } },
  }).replace('"@"', inner)
  const leafAt = text.indexOf(LEAF)
  return {
    name: `${kinds.join('+')}, ${depth} levels`,
    text,
    pointer,
    col(needle, nth = 1) {
      let at = leafAt - 1
      for (let i = 0; i < nth; i++) at = text.indexOf(needle, at + 1)
      return at + 1
    },
  }
}

const SHAPES: Kind[][] = [['items'], ['properties'], ['anyOf'], ['items', 'properties', 'anyOf']]
const CASES: Deep[] = SHAPES.flatMap((kinds) => [1001, 5000, 9990].map((depth) => deep(kinds, depth)))

function invalid(findings: (d: Deep) => InvalidCase['findings']): InvalidCase[] {
  return CASES.map((d) => ({
    name: d.name,
    files: { 'skills/a/skill.json': d.text, 'skills/a/run.sh': ECHO },
    findings: findings(d),
  }))
}

ruleTester(propertyDescription, {
  valid: [],
  invalid: invalid((d) => [
    {
      message: `property "leaf" (at ${d.pointer}) has no description: tell the LLM what to pass`,
      line: 1,
      column: d.col('"leaf":'),
    },
  ]),
})

ruleTester(additionalProperties, {
  valid: [],
  invalid: invalid((d) => [
    {
      message: `no additionalProperties decision at ${d.pointer}: set "additionalProperties": false (or a schema) so unexpected arguments are refused`,
      line: 1,
      column: d.col('"properties"'),
    },
  ]),
})

ruleTester(requiredUnknown, {
  valid: [],
  invalid: invalid((d) => [
    { message: 'required property "ghost" is not declared in properties', line: 1, column: d.col('"ghost"') },
  ]),
})

ruleTester(duplicateKey, {
  valid: [],
  invalid: invalid((d) => [
    {
      message: '"pattern" appears again in this object: the last one wins',
      line: 1,
      column: d.col('"pattern"', 2),
    },
  ]),
})

ruleTester(redosPattern, {
  valid: [],
  invalid: invalid((d) => [
    {
      // The pointer is long past what a RegExp may hold: the column says where.
      message:
        /^schema\/properties\/a\/.*\/properties\/leaf\/pattern: the pattern "\^\(a\+\)\+\$" backtracks catastrophically/,
      line: 1,
      column: d.col('"pattern"', 2),
    },
  ]),
})
