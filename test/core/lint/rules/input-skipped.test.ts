import { symlinkSync } from 'node:fs'
import rule from '../../../../src/core/lint/rules/input-skipped.js'
import { ECHO } from '../../../helpers/tree.js'
import { mkfifoSync } from '../fifo.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_NATIVE, CLEAN_PACK } from './fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    { name: 'a clean SKILL.md', files: CLEAN_NATIVE },
  ],
  invalid: [
    {
      files: { 'skills/a/run.sh': ECHO },
      setup: (R) => mkfifoSync(`${R}/skills/a/skill.json`),
      findings: [
        {
          message:
            "not checked: a FIFO: the manager's boot blocks reading it until a writer opens it and closes it; not read",
          line: 1,
          column: 1,
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      files: { 'skills/a/run.sh': ECHO },
      setup: (R) => symlinkSync('/dev/zero', `${R}/skills/a/skill.json`),
      findings: [
        {
          message:
            'not checked: a device that does not end within 67108864 bytes: the manager would read it forever (its boot never gets past it)',
          line: 1,
          column: 1,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
