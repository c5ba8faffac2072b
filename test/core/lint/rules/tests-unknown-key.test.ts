import rule from '../../../../src/core/lint/rules/tests-unknown-key.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    {
      name: 'a bad shape is tests/shape, not this rule',
      files: {
        'skills/a/skill.json': pack(),
        'skills/a/run.sh': ECHO,
        'skills/a/tests/a.json': '{"name": "a", "args": [1], "expect": {"ok": true}}',
      },
    },
  ],
  invalid: [
    {
      files: {
        'skills/a/skill.json': pack(),
        'skills/a/run.sh': ECHO,
        'skills/a/tests/a.json': '{\n  "name": "a",\n  "expect": {"ok": true, "stdout": "x"}\n}',
      },
      findings: [
        {
          message:
            '/expect/stdout: unknown key "stdout" in expect (known: ok, result, result_schema, error, timed_out, stderr_contains, max_duration_ms, effects)',
          line: 3,
          column: 26,
          file: 'skills/a/tests/a.json',
        },
      ],
    },
    {
      name: 'one near match: renamed, layout kept',
      files: {
        'skills/a/skill.json': pack(),
        'skills/a/run.sh': ECHO,
        'skills/a/tests/a.json':
          '[\n  {"nme": "a",  "expect": {"ok": true, "timedout": false}},\n  {"name": "b", "expect": {"Ok": true, "ok": false}}\n]\n',
      },
      findings: [
        {
          message: /^\/0\/nme: unknown key "nme" \(known/,
          line: 2,
          column: 4,
          file: 'skills/a/tests/a.json',
        },
        {
          message: /^\/0\/expect\/timedout: unknown key/,
          line: 2,
          column: 40,
          file: 'skills/a/tests/a.json',
        },
        { message: /^\/1\/expect\/Ok: unknown key/, line: 3, column: 28, file: 'skills/a/tests/a.json' },
      ],
      output: {
        'skills/a/tests/a.json':
          '[\n  {"name": "a",  "expect": {"ok": true, "timed_out": false}},\n  {"name": "b", "expect": {"Ok": true, "ok": false}}\n]\n',
      },
    },
  ],
})
