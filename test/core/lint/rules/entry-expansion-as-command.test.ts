// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell and JavaScript source as data, not templates
import rule from '../../../../src/core/lint/rules/entry-expansion-as-command.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, ENTRY_SH, packWithEntry } from './fixtures.js'

const msg = (x: string) =>
  `${x} stands where the command name goes: its value picks the program that runs (split into words and globbed first)`

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    {
      name: 'expansions as arguments, in assignments, arrays, arithmetic, quotes, comments',
      files: packWithEntry(
        'run.sh',
        '#!/bin/bash\necho do $x\nx=$1\narr=( $x )\n(( $n > 1 ))\necho "a; $x"\n# $x --go\nls -- "$1"\ncase $x in a) echo a ;; esac\n',
      ),
    },
    {
      name: 'tests joined by && and || in [[ ]], comparisons (an awk program over lines)',
      files: packWithEntry(
        'run.sh',
        '#!/bin/bash\nif [[ -n $a && $a == "$b" ]]; then :; fi\n[[ $x =~ ^a || $x =~ b ]] && exit 0\n[[ -f x && $ok ]] || exit 1\nawk \'\n  $1 == "x" { print }\n\' f\n',
      ),
    },
    {
      name: 'a Python entry is not read as shell',
      files: packWithEntry('run.py', '#!/usr/bin/env python3\n$x = 1\n'),
    },
  ],
  invalid: [
    {
      name: 'at the start of a command: a line, after ; && | then, after sudo, past assignments',
      files: packWithEntry(
        'run.sh',
        '#!/bin/sh\n$1 --all\ntrue && ${cmd} x\nif true; then $cmd; fi\nFOO=1 $runner --go\nsudo $action now\necho x | $filter\n',
      ),
      findings: [
        {
          file: ENTRY_SH,
          line: 2,
          column: 1,
          message: msg('$1'),
          hint: 'choose the command from a fixed list (case "$x" in ...) and pass values only as quoted arguments',
        },
        { file: ENTRY_SH, line: 3, column: 9, message: msg('${cmd}') },
        { file: ENTRY_SH, line: 4, column: 15, message: msg('$cmd') },
        { file: ENTRY_SH, line: 5, column: 7, message: msg('$runner') },
        { file: ENTRY_SH, line: 6, column: 6, message: msg('$action') },
        { file: ENTRY_SH, line: 7, column: 10, message: msg('$filter') },
      ],
    },
  ],
})
