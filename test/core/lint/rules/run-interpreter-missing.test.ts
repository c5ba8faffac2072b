import rule from '../../../../src/core/lint/rules/run-interpreter-missing.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack(), 'skills/a/run.sh': { exec: '#!/no/such/interp\n' } },
      findings: [
        {
          message:
            'subprocess skill clean: start: fork/exec $R/skills/a/run.sh: no such file or directory (stderr: )',
          line: 1,
          column: 83,
          hint: "/no/such/interp does not exist on this machine; check that the manager's host has it.",
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      name: 'a #! line ending in CR',
      files: { 'skills/a/skill.json': pack(), 'skills/a/run.sh': { exec: '#!/bin/sh\r\necho 1 # x\r\n' } },
      findings: [
        {
          message:
            'subprocess skill clean: start: fork/exec $R/skills/a/run.sh: no such file or directory (stderr: )',
          line: 1,
          column: 83,
          hint: 'the #! line ends in a CR (the file was saved with CRLF line ends): the kernel looks for an interpreter whose name ends in CR; save it with LF line ends.',
          file: 'skills/a/skill.json',
        },
      ],
      output: { 'skills/a/run.sh': '#!/bin/sh\necho 1 # x\r\n' },
    },
  ],
})
