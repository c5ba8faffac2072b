import rule from '../../../../src/core/lint/rules/native-name-normalized.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_NATIVE } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean SKILL.md', files: CLEAN_NATIVE }],
  invalid: [
    {
      files: { 'skills/n/SKILL.md': '---\nname: Disk-Report\ndescription: d\n---\n' },
      findings: [
        {
          message: 'name "Disk-Report" is not snake_case; normalized to "disk_report"',
          line: 2,
          column: 7,
          file: 'skills/n/SKILL.md',
        },
      ],
    },
  ],
})
