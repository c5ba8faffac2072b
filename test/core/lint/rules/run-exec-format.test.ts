import { chmodSync } from 'node:fs'
import rule from '../../../../src/core/lint/rules/run-exec-format.js'
import { mkfifoSync } from '../fifo.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack(), 'skills/a/run.sh': { exec: 'echo no shebang\n' } },
      findings: [
        {
          message:
            'subprocess skill clean: start: fork/exec $R/skills/a/run.sh: exec format error (stderr: )',
          line: 1,
          column: 83,
          hint: 'start the file with a #! line, e.g. #!/bin/sh.',
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      files: { 'skills/a/skill.json': pack() },
      setup: (R) => {
        mkfifoSync(`${R}/skills/a/run.sh`)
        chmodSync(`${R}/skills/a/run.sh`, 0o755)
      },
      findings: [
        {
          message:
            'subprocess skill clean: start: fork/exec $R/skills/a/run.sh: permission denied (stderr: )',
          line: 1,
          column: 83,
          hint: 'start the file with a #! line, e.g. #!/bin/sh.',
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
