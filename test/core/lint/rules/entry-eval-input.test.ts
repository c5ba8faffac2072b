import rule from '../../../../src/core/lint/rules/entry-eval-input.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, ENTRY_JS, ENTRY_PY, ENTRY_SH, packWithEntry } from './fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    {
      name: 'shell: eval of a command substitution, eval in a comment or a string, no eval',
      files: packWithEntry(
        'run.sh',
        '#!/bin/sh\neval "$(ssh-agent -s)"\n# eval "$1"\necho "to eval $1, quote it"\nevaluate "$1"\n',
      ),
    },
    {
      name: 'python: literals, methods, ast.literal_eval',
      files: packWithEntry(
        'run.py',
        '#!/usr/bin/env python3\nexec("import os")\nx = eval(\'1 + 2\')\nmodel.eval()\nast.literal_eval(a)\n# eval(a)\n',
      ),
    },
    {
      name: 'node: literals, RegExp.prototype.exec, a comment',
      files: packWithEntry('run.js', "#!/usr/bin/env node\neval('1')\n/re/.exec(s)\n// eval(a)\n"),
    },
    {
      name: 'not a language the rule reads (no #!, no known name)',
      files: packWithEntry('run', 'eval "$1"\n'),
    },
  ],
  invalid: [
    {
      name: 'shell: eval of an expansion, at the eval',
      files: packWithEntry('run.sh', '#!/bin/sh\nx=$(cat)\nif [ -n "$x" ]; then eval "$x"; fi\neval $1\n'),
      findings: [
        {
          file: ENTRY_SH,
          line: 3,
          column: 22,
          message: 'eval runs its words as shell code: `eval "$x"` turns what the value holds into commands',
        },
        { file: ENTRY_SH, line: 4, column: 1, message: /`eval \$1`/ },
      ],
    },
    {
      name: 'python: eval and exec of values',
      files: packWithEntry(
        'run.py',
        '#!/usr/bin/env python3\nimport sys\nexec(sys.stdin.read())\nprint(eval(a["e"]))\n',
      ),
      findings: [
        {
          file: ENTRY_PY,
          line: 3,
          column: 1,
          message:
            "exec(...) runs a value as Python code: when it comes from the args, the LLM's words become code",
          hint: 'parse the value (json.loads, ast.literal_eval, int(...)) instead of evaluating it',
        },
        { file: ENTRY_PY, line: 4, column: 7, message: /^eval\(\.\.\.\) runs a value as Python code/ },
      ],
    },
    {
      name: 'a .py entry without #! line',
      files: packWithEntry('run.py', 'import sys\neval(sys.argv[1])\n'),
      findings: [{ file: ENTRY_PY, line: 2, column: 1, message: /^eval\(\.\.\.\)/ }],
    },
    {
      name: 'node: eval, new Function, vm',
      files: packWithEntry(
        'run.js',
        '#!/usr/bin/env node\neval(a.code)\nconst f = new Function(a.body)\nvm.runInNewContext(src)\n',
      ),
      findings: [
        { file: ENTRY_JS, line: 2, column: 1, message: /^eval\(\.\.\.\) runs a value as JavaScript code/ },
        { file: ENTRY_JS, line: 3, column: 11, message: /^new Function\(\.\.\.\)/ },
        { file: ENTRY_JS, line: 4, column: 1, message: /^vm\.runInNewContext\(\.\.\.\)/ },
      ],
    },
  ],
})
