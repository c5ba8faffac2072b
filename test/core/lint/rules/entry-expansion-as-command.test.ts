// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell and JavaScript source as data, not templates
import rule from '../../../../src/core/lint/rules/entry-expansion-as-command.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

const entry = (name: string, text: string) => ({
  'skills/a/skill.json': pack({ entry: name }),
  [`skills/a/${name}`]: { exec: text },
})
const SH = 'skills/a/run.sh'
const msg = (x: string) =>
  `${x} stands where the command name goes: its value picks the program that runs (split into words and globbed first)`

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    {
      name: 'expansions as arguments, in assignments, arrays, arithmetic, quotes, comments',
      files: entry(
        'run.sh',
        '#!/bin/bash\necho do $x\nx=$1\narr=( $x )\n(( $n > 1 ))\necho "a; $x"\n# $x --go\nls -- "$1"\ncase $x in a) echo a ;; esac\n',
      ),
    },
    {
      name: 'tests joined by && and || in [[ ]], comparisons (an awk program over lines)',
      files: entry(
        'run.sh',
        '#!/bin/bash\nif [[ -n $a && $a == "$b" ]]; then :; fi\n[[ $x =~ ^a || $x =~ b ]] && exit 0\n[[ -f x && $ok ]] || exit 1\nawk \'\n  $1 == "x" { print }\n\' f\n',
      ),
    },
    {
      name: 'a Python entry is not read as shell',
      files: entry('run.py', '#!/usr/bin/env python3\n$x = 1\n'),
    },
  ],
  invalid: [
    {
      name: 'at the start of a command: a line, after ; && | then, after sudo, past assignments',
      files: entry(
        'run.sh',
        '#!/bin/sh\n$1 --all\ntrue && ${cmd} x\nif true; then $cmd; fi\nFOO=1 $runner --go\nsudo $action now\necho x | $filter\n',
      ),
      findings: [
        {
          file: SH,
          line: 2,
          column: 1,
          message: msg('$1'),
          hint: 'choose the command from a fixed list (case "$x" in ...) and pass values only as quoted arguments',
        },
        { file: SH, line: 3, column: 9, message: msg('${cmd}') },
        { file: SH, line: 4, column: 15, message: msg('$cmd') },
        { file: SH, line: 5, column: 7, message: msg('$runner') },
        { file: SH, line: 6, column: 6, message: msg('$action') },
        { file: SH, line: 7, column: 10, message: msg('$filter') },
      ],
    },
  ],
})
