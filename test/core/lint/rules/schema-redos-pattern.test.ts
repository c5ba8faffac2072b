import rule from '../../../../src/core/lint/rules/schema-redos-pattern.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN, CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: {
        'skills/a/skill.json': pack({
          schema: {
            ...CLEAN.schema,
            properties: {
              path: { type: 'string', description: 'A path.', pattern: '^(/[a-z]+)*$' },
              host: { type: 'string', description: 'A host.', pattern: '^(a+)+$' },
            },
          },
        }),
        'skills/a/run.sh': ECHO,
      },
      findings: [
        {
          message:
            /^schema\/properties\/host\/pattern: the pattern "\^\(a\+\)\+\$" backtracks catastrophically \(exponential time\), e\.g\. on /,
          line: 1,
          column: 319,
          hint: 'rewrite it without nested or overlapping repetition (`^a+$` instead of `^(a+)+$`), or bound the string with maxLength',
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      files: {
        'skills/a/skill.json': pack({
          schema: { ...CLEAN.schema, patternProperties: { '^(\\w+\\s?)*$': { type: 'string' } } },
        }),
        'skills/a/run.sh': ECHO,
      },
      findings: [
        {
          message: /^schema\/patternProperties: the pattern .* backtracks catastrophically/,
          line: 1,
          column: 311,
          hint: 'rewrite it without nested or overlapping repetition (`^a+$` instead of `^(a+)+$`), or bound the string with maxLength',
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
