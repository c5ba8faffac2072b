import rule from '../../../../src/core/lint/rules/schema-too-deep.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

/** A pack whose schema's property `a` is `{"type":"array","items":…}` nested `n` levels around `{"type":"string"}`. */
function itemsPack(n: number): string {
  const items = `${'{"type":"array","items":'.repeat(n)}{"type":"string"}${'}'.repeat(n)}`
  return pack({ schema: { type: 'object', properties: { a: '@' } } }).replace('"@"', items)
}

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    {
      // 100 levels in all: the root, properties, and 98 around the string.
      name: 'a schema of 100 levels: ajv checks it',
      files: {
        'skills/a/skill.json': itemsPack(97),
        'skills/a/run.sh': ECHO,
      },
    },
  ],
  invalid: [
    {
      name: '1100 levels of arrays under a non-keyword: ajv is not given it (nothing else is left unread)',
      files: {
        'skills/a/skill.json': pack({ schema: { type: 'object' } }).replace(
          '"type":"object"',
          `"x":${'['.repeat(1100)}${']'.repeat(1100)}`,
        ),
        'skills/a/run.sh': ECHO,
      },
      findings: [
        {
          message:
            'ajv did not check the schema: it nests 1101 levels, deeper than the 100 ajv is given; the manager does not check it either: the bridge sends it as written (--show-tool)',
          line: 1,
          column: 157,
          file: 'skills/a/skill.json',
        },
      ],
    },
    ...[98, 500, 998, 5000, 9990].map((n) => ({
      name: `a schema of ${n + 3} levels: ajv does not check it, and says so`,
      files: {
        'skills/a/skill.json': itemsPack(n),
        'skills/a/run.sh': ECHO,
      },
      findings: [
        {
          message: `ajv did not check the schema: it nests ${n + 3} levels, deeper than the 100 ajv is given; the manager does not check it either: the bridge sends it as written (--show-tool)`,
          line: 1,
          column: 157,
          file: 'skills/a/skill.json',
        },
      ],
    })),
  ],
})
