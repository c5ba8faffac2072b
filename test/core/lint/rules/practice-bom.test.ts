import rule from '../../../../src/core/lint/rules/practice-bom.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_NATIVE, CLEAN_PACK, NATIVE_OK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    { name: 'a clean SKILL.md', files: CLEAN_NATIVE },
  ],
  invalid: [
    {
      files: { 'skills/a/skill.json': `\ufeff${pack()}`, 'skills/a/run.sh': ECHO },
      findings: [
        {
          message:
            'the file starts with a UTF-8 byte order mark, which Go’s JSON decoder rejects: save it without BOM',
          line: 1,
          column: 1,
          file: 'skills/a/skill.json',
        },
      ],
      output: { 'skills/a/skill.json': pack() },
    },
    {
      files: { 'skills/n/SKILL.md': `\ufeff${NATIVE_OK}` },
      findings: [
        {
          message:
            'the file starts with a UTF-8 byte order mark, so the manager finds no `---` line and no frontmatter: save it without BOM',
          line: 1,
          column: 1,
          file: 'skills/n/SKILL.md',
        },
      ],
      output: { 'skills/n/SKILL.md': NATIVE_OK },
    },
  ],
})
