import rule from '../../../../src/core/lint/rules/manager-walk.js'
import { ECHO } from '../../../helpers/tree.js'
import { asRoot, ruleTester } from '../rule-tester.js'
import { CLEAN_NATIVE, CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    { name: 'a clean SKILL.md', files: CLEAN_NATIVE },
  ],
  invalid: [
    {
      files: {
        'skills/a/skill.json': pack(),
        'skills/a/run.sh': ECHO,
        'skills/locked': { dir: true, mode: 0o000 },
      },
      skip: asRoot,
      findings: [
        {
          message: 'walk $R/skills/locked: open $R/skills/locked: permission denied',
          line: 1,
          column: 1,
          file: 'skills/locked',
        },
      ],
    },
  ],
})
