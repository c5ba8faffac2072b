import rule from '../../../../src/core/lint/rules/native-read.js'
import { asRoot, ruleTester } from '../rule-tester.js'
import { CLEAN_NATIVE, NATIVE_OK } from './fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean SKILL.md', files: CLEAN_NATIVE },
    { name: 'a dangling symlink is not read', files: { 'skills/n/SKILL.md': { link: 'nowhere' } } },
  ],
  invalid: [
    {
      // A dangling symlink is never read: native/not-loaded says what the walk makes of it.
      files: { 'skills/n/SKILL.md': { file: NATIVE_OK, mode: 0o000 } },
      skip: asRoot,
      findings: [
        {
          message: 'chatruntime: read $R/skills/n/SKILL.md: open $R/skills/n/SKILL.md: permission denied',
          line: 1,
          column: 1,
          file: 'skills/n/SKILL.md',
        },
      ],
    },
  ],
})
