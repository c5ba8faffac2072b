import rule from '../../../../src/core/lint/rules/manager-file-name.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: { 'skills/a/manifest.json': pack(), 'skills/a/run.sh': ECHO },
      path: 'skills/a/manifest.json',
      findings: [
        {
          message: 'the loader only reads files named skill.json: the manager never loads this file',
          line: 1,
          column: 1,
          file: 'skills/a/manifest.json',
        },
      ],
    },
  ],
})
