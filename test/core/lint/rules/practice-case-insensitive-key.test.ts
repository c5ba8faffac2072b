import rule from '../../../../src/core/lint/rules/practice-case-insensitive-key.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ entry: undefined, Entry: 'run.sh' }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message:
            'key "Entry" was read as "entry": Go matches keys to fields case-insensitively; spell it "entry"',
          line: 1,
          column: 274,
          file: 'skills/a/skill.json',
        },
      ],
      output: {
        'skills/a/skill.json': pack({ entry: undefined, Entry: 'run.sh' }).replace('"Entry"', '"entry"'),
      },
    },
    {
      name: 'escaped and folded keys, layout kept',
      files: {
        'skills/a/skill.json': '{\n  "NAME":"a",\n  "\\u0065ntry" : "run.sh",\n  "claſs": "safe"\n}\n',
        'skills/a/run.sh': ECHO,
      },
      findings: [
        { message: /^key "NAME" was read as "name"/, line: 2, column: 3, file: 'skills/a/skill.json' },
        { message: /^key "claſs" was read as "class"/, line: 4, column: 3, file: 'skills/a/skill.json' },
      ],
      output: {
        'skills/a/skill.json': '{\n  "name":"a",\n  "\\u0065ntry" : "run.sh",\n  "class": "safe"\n}\n',
      },
    },
  ],
})
