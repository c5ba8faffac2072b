import rule from '../../../../src/core/lint/rules/native-tool-class.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_NATIVE } from './fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean SKILL.md', files: CLEAN_NATIVE },
    {
      name: 'read, write, destructive, or no class',
      files: {
        'skills/n/SKILL.md':
          '---\nname: a\ndescription: d\ntools:\n  - name: r\n    class: read\n  - name: w\n    class: write\n  - name: d\n    class: destructive\n  - name: e\n---\n',
      },
    },
  ],
  invalid: [
    {
      files: {
        'skills/n/SKILL.md': '---\nname: a\ndescription: d\ntools:\n  - name: t\n    class: readonly\n---\n',
      },
      findings: [
        {
          message:
            'tool "t": class "readonly" is not read, write or destructive (the manager accepts any value without a word)',
          line: 6,
          column: 12,
          file: 'skills/n/SKILL.md',
        },
      ],
    },
    {
      name: 'each tool, by name or by number',
      files: {
        'skills/n/SKILL.md':
          '---\nname: a\ndescription: d\ntools:\n  - name: t\n    class: Read\n  - class: admin\n---\n',
      },
      findings: [
        {
          message:
            'tool "t": class "Read" is not read, write or destructive (the manager accepts any value without a word)',
          line: 6,
          column: 12,
          file: 'skills/n/SKILL.md',
        },
        {
          message:
            'tool #2: class "admin" is not read, write or destructive (the manager accepts any value without a word)',
          line: 7,
          column: 12,
          file: 'skills/n/SKILL.md',
        },
      ],
    },
  ],
})
