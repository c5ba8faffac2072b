import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { fromText } from '../../../../src/core/go/gostring.js'
import type { Context } from '../../../../src/core/lint/context.js'
import { check } from '../../../../src/core/lint/engine.js'
import rule from '../../../../src/core/lint/rules/entry-shellcheck.js'
import type { Rule, Setting } from '../../../../src/core/lint/types.js'
import { runCliSync } from '../../../helpers/cli.js'
import { shellcheckSkip } from '../../../helpers/shellcheck.js'
import { makeTree, type Node } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, colOf, pack } from './fixtures.js'

const skip = shellcheckSkip
const tree = (runSh: Node, fields: Record<string, unknown> = {}) => ({
  'skills/a/skill.json': pack(fields),
  'skills/a/run.sh': runSh,
})

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK, skip },
    { name: 'args quoted', files: tree({ exec: '#!/bin/sh\nls -- "$1"\n' }), skip },
    {
      name: 'a bash entry without #! line: read as bash, by its name',
      files: {
        'skills/a/skill.json': pack({ entry: 'run.bash' }),
        'skills/a/run.bash': { exec: '[[ -n "$1" ]] && echo "$1"\n' },
      },
      skip,
    },
    {
      name: 'a Python entry is not given to ShellCheck',
      files: tree({ exec: '#!/usr/bin/python3\nls $1\n' }),
    },
    { name: 'zsh is not a shell ShellCheck reads', files: tree({ exec: '#!/bin/zsh\nls $1\n' }) },
    {
      name: 'a code the author disabled (# shellcheck disable=SC2086)',
      files: tree({ exec: '#!/bin/sh\n# shellcheck disable=SC2086\nls $1\n' }),
      skip,
    },
  ],
  invalid: [
    {
      name: 'ShellCheck findings at their line and column in the entry, under their own ids and levels',
      files: tree({ exec: '#!/bin/sh\nls $1\nif [ $# = 1 ]; then\n  echo "x" >&2\nfi\ncd /tmp\n' }),
      skip,
      findings: [
        {
          ruleId: 'entry/SC2086',
          severity: 'info',
          file: 'skills/a/run.sh',
          line: 2,
          column: 4,
          message: 'Double quote to prevent globbing and word splitting.',
        },
        {
          ruleId: 'entry/SC2164',
          severity: 'warn',
          file: 'skills/a/run.sh',
          line: 6,
          column: 1,
          message: /^Use 'cd \.\.\. \|\| exit'/,
        },
      ],
    },
    {
      name: 'a syntax error is an error',
      files: tree({ exec: '#!/bin/bash\nif [ "$1" ]; then\n  echo x\n' }),
      skip,
      findings: [
        {
          ruleId: 'entry/SC1046',
          severity: 'error',
          file: 'skills/a/run.sh',
          line: 2,
          column: 1,
          message: "Couldn't find 'fi' for this 'if'.",
        },
        {
          ruleId: 'entry/SC1073',
          severity: 'error',
          file: 'skills/a/run.sh',
          line: 2,
          column: 1,
          message: "Couldn't parse this if expression. Fix to allow more checks.",
        },
        {
          ruleId: 'entry/SC1047',
          severity: 'error',
          file: 'skills/a/run.sh',
          line: 4,
          column: 1,
          message: "Expected 'fi' matching previously mentioned 'if'.",
        },
        {
          ruleId: 'entry/SC1072',
          severity: 'error',
          file: 'skills/a/run.sh',
          line: 4,
          column: 1,
          message: "Expected 'fi'. Fix any mentioned problems and try again.",
        },
      ],
    },
    {
      name: 'a .sh entry without #! line is read as sh',
      files: {
        'skills/a/skill.json': pack({ entry: 'run.sh' }),
        'skills/a/run.sh': { exec: '[[ -n "$1" ]] && echo "$1"\n' },
      },
      skip,
      findings: [
        {
          ruleId: 'entry/SC3010',
          severity: 'warn',
          file: 'skills/a/run.sh',
          line: 1,
          column: 1,
          message: 'In POSIX sh, [[ ]] is undefined.',
        },
      ],
    },
  ],
})

const BAD = '#!/bin/sh\nls $1\ncd /tmp\n'

/** The rule's findings on a pack whose run.sh is BAD, with these settings. */
async function findings(opts: { overrides?: [string, Setting][]; config?: string; path?: string } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'sc-'))
  try {
    makeTree(dir, tree({ exec: BAD }))
    if (opts.config !== undefined) writeFileSync(join(dir, '.ongrid-skill.yaml'), opts.config)
    const savedPath = process.env.PATH
    if (opts.path !== undefined) process.env.PATH = opts.path
    try {
      const r = await check({
        paths: [fromText(join(dir, 'skills'))],
        rules: [rule as Rule<Context>],
        set: 'all',
        useConfig: true,
        overrides: new Map(opts.overrides ?? []),
      })
      return r.files.flatMap((f) => f.findings.map((x) => `${x.ruleId} ${x.severity} ${x.line}:${x.column}`))
    } finally {
      process.env.PATH = savedPath
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('entry/shellcheck: settings of the rule and of each code', () => {
  test('without shellcheck on PATH: one info line at the entry, never more', async () => {
    const got = await findings({ path: '/nonexistent' })
    assert.deepEqual(got, [`entry/shellcheck info 1:${colOf({}, '"entry"')}`])
  })

  test('defaults: the levels mapped', { skip: skip() }, async () => {
    assert.deepEqual(await findings(), ['entry/SC2086 info 2:4', 'entry/SC2164 warn 3:1'])
  })

  test('--rule on one code, on the whole rule; the code wins', { skip: skip() }, async () => {
    assert.deepEqual(await findings({ overrides: [['entry/SC2086', 'error']] }), [
      'entry/SC2086 error 2:4',
      'entry/SC2164 warn 3:1',
    ])
    assert.deepEqual(await findings({ overrides: [['entry/shellcheck', 'error']] }), [
      'entry/SC2086 error 2:4',
      'entry/SC2164 error 3:1',
    ])
    assert.deepEqual(await findings({ overrides: [['entry/SC2164', 'off']] }), ['entry/SC2086 info 2:4'])
    assert.deepEqual(await findings({ overrides: [['entry/shellcheck', 'off']] }), [])
    // The rule off, one code on: ShellCheck runs for that code alone.
    assert.deepEqual(
      await findings({
        overrides: [
          ['entry/shellcheck', 'off'],
          ['entry/SC2164', 'error'],
        ],
      }),
      ['entry/SC2164 error 3:1'],
    )
  })

  test('config files set codes too; --rule wins over them', { skip: skip() }, async () => {
    const config = 'rules:\n  entry/SC2086: off\n  entry/shellcheck: warn\n'
    assert.deepEqual(await findings({ config }), ['entry/SC2164 warn 3:1'])
    assert.deepEqual(await findings({ config, overrides: [['entry/shellcheck', 'error']] }), [
      'entry/SC2086 error 2:4',
      'entry/SC2164 error 3:1',
    ])
    assert.deepEqual(await findings({ config: 'rules:\n  entry/shellcheck: off\n  entry/SC2164: warn\n' }), [
      'entry/SC2164 warn 3:1',
    ])
  })
})

describe('entry/shellcheck: --rule on the command line', () => {
  test('takes ShellCheck codes; a code that is no id is refused with exit 2', { skip: skip() }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'sc-cli-'))
    try {
      makeTree(dir, tree({ exec: BAD }))
      const on = runCliSync(['lint', join(dir, 'skills'), '--json', '--rule', 'entry/SC2086=error'])
      assert.equal(on.code, 1, on.stderr)
      const ids = JSON.parse(on.stdout).files.flatMap(
        (f: { findings: { rule_id: string; severity: string }[] }) =>
          f.findings.filter((x) => x.rule_id.startsWith('entry/SC')).map((x) => `${x.rule_id} ${x.severity}`),
      )
      assert.deepEqual(ids, ['entry/SC2086 error', 'entry/SC2164 warn'])
      const bad = runCliSync(['lint', join(dir, 'skills'), '--rule', 'entry/SC86=off'])
      assert.equal(bad.code, 2)
      assert.match(bad.stderr, /unknown rule "entry\/SC86"/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
