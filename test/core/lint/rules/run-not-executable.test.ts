import rule from '../../../../src/core/lint/rules/run-not-executable.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack(), 'skills/a/run.sh': { file: '#!/bin/sh\n', mode: 0o644 } },
      findings: [
        {
          message: 'subprocess skill: entry $R/skills/a/run.sh not executable',
          line: 1,
          column: 83,
          hint: 'chmod +x it (and commit the mode: git update-index --chmod=+x).',
          file: 'skills/a/skill.json',
        },
      ],
      output: { 'skills/a/run.sh': { mode: 0o755 } },
    },
    {
      name: 'an execute bit for each read bit',
      files: { 'skills/a/skill.json': pack(), 'skills/a/run.sh': { file: '#!/bin/sh\n', mode: 0o640 } },
      findings: [{ message: /not executable$/, line: 1, column: 83, file: 'skills/a/skill.json' }],
      output: { 'skills/a/run.sh': { mode: 0o750 } },
    },
    {
      name: 'a link: the file the manager runs (the resolved entry) gets the bit',
      files: {
        'skills/a/skill.json': pack(),
        'skills/a/run.sh': { link: 'real.sh' },
        'skills/a/real.sh': { file: '#!/bin/sh\n', mode: 0o644 },
      },
      findings: [{ message: /not executable$/, line: 1, column: 83, file: 'skills/a/skill.json' }],
      output: { 'skills/a/real.sh': { mode: 0o755 } },
    },
  ],
})
