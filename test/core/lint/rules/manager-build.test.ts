import rule from '../../../../src/core/lint/rules/manager-build.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ name: 'Bad-Name' }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message: 'name "Bad-Name" must be lower_snake [a-z0-9_]',
          line: 1,
          column: 2,
          hint: 'names may only use a-z, 0-9 and _: e.g. "bad_name".',
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      files: { 'skills/a/skill.json': pack({ entry: 'missing.sh' }) },
      findings: [
        {
          message: 'eval entry symlinks: lstat $R/skills/a/missing.sh: no such file or directory',
          line: 1,
          column: 83,
          hint: 'a relative entry is resolved against the directory that holds skill.json.',
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      files: { 'skills/a/skill.json': pack({ entry: '../../outside.sh' }), 'outside.sh': ECHO },
      findings: [
        {
          message: 'entry $R/outside.sh escapes allowlist root $R/skills',
          line: 1,
          column: 83,
          hint: 'the entry (after resolving symlinks) must be inside the allow-list root; use --root if the manager’s root is another dir.',
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      files: { 'skills/a/skill.json': pack({ entry: '../..x/run.sh' }), 'skills/..x/run.sh': ECHO },
      findings: [
        {
          message: 'entry $R/skills/..x/run.sh escapes allowlist root $R/skills',
          line: 1,
          column: 83,
          hint: 'the entry is inside the root, at ..x/run.sh, but the manager treats any relative path starting with ".." as an escape, so "..x" counts as outside: rename that directory.',
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      files: { 'skills/a/skill.json': pack({ class: 'Safe' }), 'skills/a/run.sh': ECHO },
      findings: [{ message: 'class "Safe" invalid', line: 1, column: 100, file: 'skills/a/skill.json' }],
    },
  ],
})
