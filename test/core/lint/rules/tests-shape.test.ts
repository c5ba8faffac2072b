import rule from '../../../../src/core/lint/rules/tests-shape.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    {
      name: 'an unknown key is tests/unknown-key, not this rule',
      files: {
        'skills/a/skill.json': pack(),
        'skills/a/run.sh': ECHO,
        'skills/a/tests/a.json': '{"name": "a", "expect": {"ok": true}, "argz": {}}',
      },
    },
  ],
  invalid: [
    {
      files: {
        'skills/a/skill.json': pack(),
        'skills/a/run.sh': ECHO,
        'skills/a/tests/a.json': '{\n  "name": "a"\n}',
      },
      findings: [
        {
          message: '(file): a case needs `expect` (or `"snapshot": true`)',
          line: 1,
          column: 1,
          file: 'skills/a/tests/a.json',
        },
      ],
    },
  ],
})
