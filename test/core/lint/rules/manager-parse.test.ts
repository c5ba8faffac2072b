import { symlinkSync, truncateSync } from 'node:fs'
import rule from '../../../../src/core/lint/rules/manager-parse.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: { 'skills/a/skill.json': '{\n  "name": "a",\n}' },
      findings: [
        {
          message: "decode: invalid character '}' looking for beginning of object key string",
          line: 3,
          column: 1,
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      files: { 'skills/a/skill.json': '{"name": "a", "timeout_seconds": "30"}' },
      findings: [
        {
          message:
            'decode: json: cannot unmarshal string into Go struct field SkillManifest.timeout_seconds of type int',
          line: 1,
          column: 15,
          hint: 'timeout_seconds must be a whole JSON number of seconds, e.g. 30.',
          file: 'skills/a/skill.json',
        },
      ],
      output: { 'skills/a/skill.json': '{"name": "a", "timeout_seconds": 30}' },
    },
    {
      name: 'leading zeros dropped; past int64, or not only digits, no fix',
      files: {
        'skills/a/skill.json': '{"timeout_seconds": "007",\n "timeout_seconds": "9223372036854775808"}',
        'skills/b/skill.json': '{"timeout_seconds": " 7"}',
      },
      findings: [
        { message: /cannot unmarshal string/, line: 1, column: 2, file: 'skills/a/skill.json' },
        { message: /cannot unmarshal string/, line: 1, column: 2, file: 'skills/b/skill.json' },
      ],
      output: {
        'skills/a/skill.json': '{"timeout_seconds": 7,\n "timeout_seconds": "9223372036854775808"}',
        'skills/b/skill.json': '{"timeout_seconds": " 7"}',
      },
    },
    {
      files: { 'skills/a/skill.json': '\ufeff{}' },
      findings: [
        {
          message: "decode: invalid character 'ï' looking for beginning of value",
          line: 1,
          column: 1,
          hint: 'the file starts with a UTF-8 byte order mark: save it without BOM.',
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      files: { 'skills/a/skill.json': '{"a":1' },
      findings: [
        { message: 'decode: unexpected end of JSON input', line: 1, column: 7, file: 'skills/a/skill.json' },
      ],
    },
    {
      files: { 'skills/a/skill.json': { link: 'nowhere' } },
      findings: [
        {
          message: 'read: open $R/skills/a/skill.json: no such file or directory',
          line: 1,
          column: 1,
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      name: '17 MiB of NULs: judged as the manager judges it, whatever the size.',
      files: { 'skills/a/skill.json': '' },
      setup: (R) => truncateSync(`${R}/skills/a/skill.json`, 17 * 1024 * 1024),
      findings: [
        {
          message: "decode: invalid character '\\x00' looking for beginning of value",
          line: 1,
          column: 1,
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      name: "/dev/null ends at once: the manager's own parse error.",
      files: { 'skills/a/run.sh': ECHO },
      setup: (R) => symlinkSync('/dev/null', `${R}/skills/a/skill.json`),
      findings: [
        { message: 'decode: unexpected end of JSON input', line: 1, column: 1, file: 'skills/a/skill.json' },
      ],
    },
  ],
})
