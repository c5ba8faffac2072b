import rule from '../../../../src/core/lint/rules/tests-args-schema.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    {
      name: 'bad args on purpose: the case expects an error, or a timeout',
      files: {
        'skills/a/skill.json': pack({ schema: { type: 'object', required: ['path'] } }),
        'skills/a/run.sh': ECHO,
        'skills/a/tests/a.json': JSON.stringify([
          { name: 'e', args: {}, expect: { error: { match: 'path' } } },
          { name: 'f', args: {}, expect: { ok: false } },
          { name: 't', args: {}, expect: { timed_out: true } },
        ]),
      },
    },
  ],
  invalid: [
    {
      name: 'args from args_file are checked too',
      files: {
        'skills/a/skill.json': pack({
          schema: { type: 'object', required: ['path'], properties: { path: { type: 'string' } } },
        }),
        'skills/a/run.sh': ECHO,
        'skills/a/tests/a.json': '{"name": "a", "args_file": "args/a.json", "expect": {"ok": true}}',
        'skills/a/tests/args/a.json': '{"path": 1}',
      },
      findings: [
        {
          message: 'case "a": args/path: must be string',
          line: 1,
          column: 1,
          hint: 'the manager does not check args: the entry gets them as they are; expect an error if that is the point',
          file: 'skills/a/tests/a.json',
        },
      ],
    },
    {
      files: {
        'skills/a/skill.json': pack({ schema: { type: 'object', required: ['path'] } }),
        'skills/a/run.sh': ECHO,
        'skills/a/tests/a.json': '{"name": "a", "args": {}, "expect": {"ok": true}}',
      },
      findings: [
        {
          message: 'case "a": args/path: must have required property \'path\'',
          line: 1,
          column: 15,
          hint: 'the manager does not check args: the entry gets them as they are; expect an error if that is the point',
          file: 'skills/a/tests/a.json',
        },
      ],
    },
  ],
})
