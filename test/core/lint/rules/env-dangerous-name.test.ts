import assert from 'node:assert/strict'
import { test } from 'node:test'
import rule, { DANGEROUS_ENV } from '../../../../src/core/lint/rules/env-dangerous-name.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, colOf, pack } from './fixtures.js'

const HINT =
  'pass the value the skill needs in its args or set it in the entry, rather than allowing the variable'

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    {
      name: 'ordinary names, and near names that are not the variables (case matters to the loader)',
      files: {
        'skills/a/skill.json': pack({
          env_allow: ['PATH', 'HOME', 'LANG', 'ld_preload', 'LD_PRELOADX', 'MY_ENV'],
        }),
        'skills/a/run.sh': ECHO,
      },
    },
  ],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ env_allow: ['PATH', 'LD_PRELOAD'] }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message:
            "LD_PRELOAD changes what code the entry runs: the dynamic loader loads the libraries it names into every program; whoever sets the manager's environment runs code in the skill",
          hint: HINT,
          line: 1,
          column: colOf({ env_allow: ['PATH', 'LD_PRELOAD'] }, '"LD_PRELOAD"'),
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      name: 'names the manager trims, each of them',
      files: {
        'skills/a/skill.json': pack({ env_allow: [' NODE_OPTIONS', 'PYTHONPATH\t', 'BASH_ENV'] }),
        'skills/a/run.sh': ECHO,
      },
      findings: [
        {
          message:
            "NODE_OPTIONS changes what code the entry runs: Node takes options from it (--require and --import load code); whoever sets the manager's environment runs code in the skill",
          hint: HINT,
          line: 1,
          column: colOf({ env_allow: [' NODE_OPTIONS', 'PYTHONPATH\t', 'BASH_ENV'] }, '" NODE_OPTIONS"'),
          file: 'skills/a/skill.json',
        },
        {
          message:
            "PYTHONPATH changes what code the entry runs: Python imports modules from there before its own; whoever sets the manager's environment runs code in the skill",
          hint: HINT,
          line: 1,
          column: colOf({ env_allow: [' NODE_OPTIONS', 'PYTHONPATH\t', 'BASH_ENV'] }, '"PYTHONPATH\\t"'),
          file: 'skills/a/skill.json',
        },
        {
          message:
            "BASH_ENV changes what code the entry runs: bash runs the file it names before every non-interactive script; whoever sets the manager's environment runs code in the skill",
          hint: HINT,
          line: 1,
          column: colOf({ env_allow: [' NODE_OPTIONS', 'PYTHONPATH\t', 'BASH_ENV'] }, '"BASH_ENV"'),
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})

test('env/dangerous-name: the list holds what the issue names, and the docs name every entry', () => {
  for (const name of [
    'LD_PRELOAD',
    'LD_LIBRARY_PATH',
    'NODE_OPTIONS',
    'PYTHONPATH',
    'PYTHONSTARTUP',
    'PERL5LIB',
    'PERL5OPT',
    'RUBYOPT',
    'RUBYLIB',
    'NODE_PATH',
    'BASH_ENV',
    'ENV',
    'GCONV_PATH',
  ])
    assert.ok(DANGEROUS_ENV.has(name), name)
  for (const name of DANGEROUS_ENV.keys()) assert.ok(rule.docs.includes(`\`${name}\``), name)
  assert.ok(!DANGEROUS_ENV.has('PATH'))
})
