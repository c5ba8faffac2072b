import rule from '../../../../src/core/lint/rules/native-activation-conflict.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_NATIVE } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean SKILL.md', files: CLEAN_NATIVE }],
  invalid: [
    {
      files: {
        'skills/n/SKILL.md':
          '---\nname: a\ndescription: d\nactivation: {mode: keyword, keywords: [x]}\nmetadata: {ongrid: {activation: {mode: always}}}\n---\n',
      },
      findings: [
        {
          message:
            'both top-level activation and metadata.ongrid.activation are set; using metadata.ongrid.activation',
          line: 5,
          column: 40,
          file: 'skills/n/SKILL.md',
        },
      ],
    },
  ],
})
