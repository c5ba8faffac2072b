import rule from '../../../../src/core/lint/rules/manager-duplicate-name.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: {
        'skills/a/skill.json': pack(),
        'skills/a/run.sh': ECHO,
        'skills/b/skill.json': pack(),
        'skills/b/run.sh': ECHO,
      },
      findings: [
        {
          message: 'skill "clean" already registered, skipping $R/skills/b/skill.json',
          line: 1,
          column: 2,
          hint: 'first registered from $R/skills/a/skill.json; the manager keeps the first dir and the first path in walk order.',
          file: 'skills/b/skill.json',
        },
      ],
    },
    {
      name: 'every later pack, each against the first',
      files: {
        'skills/a/skill.json': pack(),
        'skills/a/run.sh': ECHO,
        'skills/b/skill.json': pack(),
        'skills/b/run.sh': ECHO,
        'skills/c/skill.json': pack(),
        'skills/c/run.sh': ECHO,
      },
      findings: [
        {
          message: 'skill "clean" already registered, skipping $R/skills/b/skill.json',
          line: 1,
          column: 2,
          hint: 'first registered from $R/skills/a/skill.json; the manager keeps the first dir and the first path in walk order.',
          file: 'skills/b/skill.json',
        },
        {
          message: 'skill "clean" already registered, skipping $R/skills/c/skill.json',
          line: 1,
          column: 2,
          hint: 'first registered from $R/skills/a/skill.json; the manager keeps the first dir and the first path in walk order.',
          file: 'skills/c/skill.json',
        },
      ],
    },
  ],
})
