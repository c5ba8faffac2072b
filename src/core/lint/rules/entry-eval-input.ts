import { callArgs, entryRule, inShellQuotes, matchesOf, quoteCode } from '../rule-kit/entry-code.js'
import { pack } from '../rule-kit/examples.js'

/** Shell: `eval` with a parameter expansion among its words (`eval "$1"`, `eval $cmd`). */
const SHELL_EVAL = /(?:^|[\s;&|(`])(eval)[ \t]+([^;&|\n]*\$(?:[A-Za-z_0-9@*]|\{)[^;&|\n]*)/gm
/** Python's eval/exec, Node's eval, as functions (not methods: `model.eval()`). */
const PY_EVAL = /(?<![\w.])(eval|exec)\s*\(/g
const JS_EVAL =
  /(?<![\w.$])(eval)\s*\(|\bnew\s+(Function)\s*\(|\bvm\.(runInNewContext|runInThisContext|runInContext)\s*\(/g
/** A first argument that is a string literal and nothing more: code written by the author. */
const LITERAL_ONLY =
  /^\s*(?:[rbuRBU]{0,2}"(?:[^"\\\n]|\\.)*"|[rbuRBU]{0,2}'(?:[^'\\\n]|\\.)*'|`[^`$]*`)\s*(?:,|$)/

export default entryRule({
  id: 'entry/eval-input',
  severity: 'warn',
  docs: 'The entry evaluates text as code (`eval "$1"` in a shell; `eval(...)`/`exec(...)` of a value in Python; `eval(...)`, `new Function(...)`, `vm.runIn*Context(...)` in Node): when the text comes from the args, the LLM\'s words become code run with the skill\'s rights. Found by pattern, not by following where the value came from: a literal argument is not reported.',
  examples: {
    bad: [
      { files: pack({}, { 'run.sh': { exec: '#!/bin/sh\nargs=$(cat)\neval "$args"\n' } }) },
      {
        files: pack(
          { entry: 'run.py' },
          {
            'run.py': {
              exec: '#!/usr/bin/env python3\nimport json, sys\nprint(eval(json.load(sys.stdin)["expr"]))\n',
            },
          },
        ),
      },
    ],
    good: [
      {
        files: pack(
          {},
          { 'run.sh': { exec: '#!/bin/sh\neval "$(ssh-agent -s)" >/dev/null\ndf -P -- "$1"\n' } },
        ),
      },
      {
        files: pack(
          { entry: 'run.py' },
          {
            'run.py': {
              exec: '#!/usr/bin/env python3\nimport ast, json, sys\nprint(ast.literal_eval(json.load(sys.stdin)["expr"]))\n',
            },
          },
        ),
      },
    ],
  },
  find(code, text) {
    if (code.language === 'shell') {
      return matchesOf(text, SHELL_EVAL, 1)
        .filter(({ at }) => !inShellQuotes(text, at))
        .map(({ at, m }) => ({
          at,
          message: `eval runs its words as shell code: \`eval ${quoteCode(m[2])}\` turns what the value holds into commands`,
          hint: 'run the command with the value as an argument ("$1", quoted) instead of building code from it',
        }))
    }
    const re = code.language === 'python' ? PY_EVAL : JS_EVAL
    return matchesOf(text, re).flatMap(({ at, m }) => {
      const open = m.index + m[0].length - 1
      if (LITERAL_ONLY.test(callArgs(text, open))) return []
      const name = m[1] ?? (m[2] ? 'new Function' : `vm.${m[3]}`)
      return [
        {
          at,
          message: `${name}(...) runs a value as ${code.language === 'python' ? 'Python' : 'JavaScript'} code: when it comes from the args, the LLM's words become code`,
          hint:
            code.language === 'python'
              ? 'parse the value (json.loads, ast.literal_eval, int(...)) instead of evaluating it'
              : 'parse the value (JSON.parse, Number(...)) instead of evaluating it',
        },
      ]
    })
  },
})
