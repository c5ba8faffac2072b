// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell and JavaScript source as data, not templates
import rule from '../../../../src/core/lint/rules/entry-shell-string.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, ENTRY_JS, ENTRY_PY, ENTRY_SH, packWithEntry } from './fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    {
      name: 'shell: sh -c with the values after it, a literal command, one in a comment',
      files: packWithEntry(
        'run.sh',
        '#!/bin/sh\nsh -c \'ls -- "$1"\' sh "$x"\nbash -c "ls -l /tmp"\n# sh -c "ls $x"\necho "sh -c $x"\n',
      ),
    },
    {
      name: 'python: literals, argument lists, shell=True with a literal',
      files: packWithEntry(
        'run.py',
        '#!/usr/bin/env python3\nos.system("ls -l")\nsubprocess.run(["ls", a["p"]])\nsubprocess.run("ls -l", shell=True)\nsubprocess.run(f"ls {p}".split())\n',
      ),
    },
    {
      name: 'node: execFile with a list, a literal command, spawn without shell',
      files: packWithEntry(
        'run.js',
        "#!/usr/bin/env node\nexecFileSync('ls', [a.p])\nexecSync('ls -l')\nspawn('ls', [a.p])\n/x/.exec(`${s}`)\n",
      ),
    },
  ],
  invalid: [
    {
      name: 'shell: sh -c with an expansion in its command',
      files: packWithEntry('run.sh', '#!/bin/sh\nsh -c "ls $1"\nx=1; bash -lc $cmd\n'),
      findings: [
        {
          file: ENTRY_SH,
          line: 2,
          column: 1,
          message:
            'sh -c runs a command line built from an expansion ("ls $1"): quotes, ; and $(...) in the value become shell code',
          hint: 'pass the values as arguments after the command: sh -c \'... "$1" ...\' sh "$value"',
        },
        {
          file: ENTRY_SH,
          line: 3,
          column: 6,
          message: /^bash -lc runs a command line built from an expansion \(\$cmd\)/,
        },
      ],
    },
    {
      name: 'python: os.system with an f-string, concatenation, a name; subprocess with shell=True over lines',
      files: packWithEntry(
        'run.py',
        '#!/usr/bin/env python3\nos.system(f"ls {p}")\nos.popen("ls " + p)\nos.system(cmd)\nsubprocess.run(\n    "ls {}".format(p),\n    shell=True,\n)\nsubprocess.check_output("ls %s" % p, shell=True)\n',
      ),
      findings: [
        {
          file: ENTRY_PY,
          line: 2,
          column: 1,
          message: /^os\.system\(\.\.\.\) hands a command line built from values to a shell:/,
        },
        { file: ENTRY_PY, line: 3, column: 1, message: /^os\.popen\(\.\.\.\)/ },
        { file: ENTRY_PY, line: 4, column: 1, message: /^os\.system\(\.\.\.\)/ },
        {
          file: ENTRY_PY,
          line: 5,
          column: 1,
          message:
            'subprocess.run(...) hands a command line built from values to a shell (shell=True): quotes, ; and $(...) in an arg become shell code',
          hint: 'pass a list of arguments without shell=True: subprocess.run(["cmd", value])',
        },
        { file: ENTRY_PY, line: 9, column: 1, message: /^subprocess\.check_output\(\.\.\.\)/ },
      ],
    },
    {
      name: 'node: exec with a template string or concatenation; spawn with shell: true',
      files: packWithEntry(
        'run.js',
        "#!/usr/bin/env node\nexec(`ls ${a.p}`)\nchild_process.execSync('ls ' + a.p)\nspawn(`ls ${a.p}`, { shell: true })\n",
      ),
      findings: [
        {
          file: ENTRY_JS,
          line: 2,
          column: 1,
          message: /^exec\(\.\.\.\) hands a command line built from values to a shell:/,
        },
        { file: ENTRY_JS, line: 3, column: 1, message: /^child_process\.execSync\(\.\.\.\)/ },
        { file: ENTRY_JS, line: 4, column: 1, message: /^spawn\(\.\.\.\) hands .* \(shell: true\)/ },
      ],
    },
  ],
})
