// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell and JavaScript source as data, not templates
import { callArgs, entryRule, inShellQuotes, matchesOf, quoteCode } from '../rule-kit/entry-code.js'
import { pack } from '../rule-kit/examples.js'

/** `sh -c` (any shell, any flags with c) whose command is double-quoted with an expansion in it, or unquoted. */
const SHELL_C =
  /(?:^|[\s;&|(`])((?:sh|bash|dash|ksh|zsh|ash|busybox\s+sh)[ \t]+(?:-[A-Za-z]+[ \t]+)*-[A-Za-z]*c[A-Za-z]*)[ \t]+("[^"\n]*\$(?:[A-Za-z_0-9@*]|\{)[^"\n]*"?|\$(?:\{[^}\n]*\}|[A-Za-z_0-9@*]+))/gm
/** Python calls that hand one string to a shell. */
const PY_SHELL =
  /\b(os\.system|os\.popen|subprocess\.getoutput|subprocess\.getstatusoutput|commands\.getoutput)\s*\(/g
const PY_SUBPROCESS = /\b(subprocess\.(?:run|call|check_call|check_output|Popen))\s*\(/g
/** Node's exec family (a string for a shell), and spawn/execFile given `shell: true`. */
const JS_EXEC =
  /(?<![\w$])((?:child_process|childProcess|cp)\.(?:exec|execSync)|(?<![.])(?:exec|execSync))\s*\(/g
const JS_SPAWN =
  /(?<![\w$])((?:(?:child_process|childProcess|cp)\.)?(?:spawn|spawnSync|execFile|execFileSync))\s*\(/g
/** A command string built from values: an f-string, %-formatting, .format(), concatenation, or a name. */
const PY_BUILT =
  /^\s*(?:[rbRB]?[fF][rbRB]?["']|[^,]*(?:%\s*[\w(]|\.format\s*\(|["']\s*\+|\+\s*["'\w])|[A-Za-z_][\w.]*\s*(?:,|$))/
const JS_BUILT = /^\s*(?:`[^`]*\$\{|[^,]*(?:["'`]\s*\+|\+\s*["'`\w])|[A-Za-z_$][\w$.]*\s*(?:,|$))/

export default entryRule({
  id: 'entry/shell-string',
  severity: 'warn',
  docs: 'The entry builds a command line from values and hands it to a shell (`sh -c "... $x ..."`; `os.system(f"...")`, `subprocess.run(..., shell=True)` with a built string in Python; `child_process.exec(`...${x}...`)` in Node): a `;`, `$(...)` or quote in an arg runs commands of the LLM\'s choosing. Found by pattern: a command written out as a literal is not reported.',
  examples: {
    bad: [
      { files: pack({}, { 'run.sh': { exec: '#!/bin/sh\npath=$(cat)\nsh -c "df -P $path"\n' } }) },
      {
        files: pack(
          { entry: 'run.py' },
          {
            'run.py': {
              exec: '#!/usr/bin/env python3\nimport json, os, sys\nos.system(f"df -P {json.load(sys.stdin)[\'path\']}")\n',
            },
          },
        ),
      },
      {
        files: pack(
          { entry: 'run.js' },
          {
            'run.js': {
              exec: "#!/usr/bin/env node\nconst { execSync } = require('node:child_process')\nconst a = JSON.parse(require('node:fs').readFileSync(0, 'utf8'))\nprocess.stdout.write(execSync(`df -P ${a.path}`))\n",
            },
          },
        ),
      },
    ],
    good: [
      {
        files: pack(
          {},
          { 'run.sh': { exec: '#!/bin/sh\npath=$(cat)\nsh -c \'df -P -- "$1"\' sh "$path"\n' } },
        ),
      },
      {
        files: pack(
          { entry: 'run.py' },
          {
            'run.py': {
              exec: '#!/usr/bin/env python3\nimport json, subprocess, sys\nsubprocess.run(["df", "-P", "--", json.load(sys.stdin)["path"]], check=True)\n',
            },
          },
        ),
      },
      {
        files: pack(
          { entry: 'run.js' },
          {
            'run.js': {
              exec: "#!/usr/bin/env node\nconst { execFileSync } = require('node:child_process')\nconst a = JSON.parse(require('node:fs').readFileSync(0, 'utf8'))\nprocess.stdout.write(execFileSync('df', ['-P', '--', a.path]))\n",
            },
          },
        ),
      },
    ],
  },
  find(code, text) {
    const hint =
      code.language === 'shell'
        ? 'pass the values as arguments after the command: sh -c \'... "$1" ...\' sh "$value"'
        : code.language === 'python'
          ? 'pass a list of arguments without shell=True: subprocess.run(["cmd", value])'
          : "pass a list of arguments to execFile or spawn, without shell: execFileSync('cmd', [value])"
    if (code.language === 'shell') {
      return matchesOf(text, SHELL_C, 1)
        .filter(({ at }) => !inShellQuotes(text, at))
        .map(({ at, m }) => ({
          at,
          message: `${quoteCode(m[1])} runs a command line built from an expansion (${quoteCode(m[2])}): quotes, ; and $(...) in the value become shell code`,
          hint,
        }))
    }
    const hits: { at: number; message: string; hint: string }[] = []
    const built = code.language === 'python' ? PY_BUILT : JS_BUILT
    const calls =
      code.language === 'python'
        ? [
            { re: PY_SHELL, needsShell: false },
            { re: PY_SUBPROCESS, needsShell: true },
          ]
        : [
            { re: JS_EXEC, needsShell: false },
            { re: JS_SPAWN, needsShell: true },
          ]
    for (const { re, needsShell } of calls) {
      for (const { at, m } of matchesOf(text, re)) {
        const args = callArgs(text, m.index + m[0].length - 1)
        if (needsShell && !/\bshell\s*[=:]\s*(?:True|true)\b/.test(args)) continue
        if (!built.test(args)) continue
        hits.push({
          at,
          message: `${m[1]}(...) hands a command line built from values to a shell${needsShell ? ' (shell' + (code.language === 'python' ? '=True' : ': true') + ')' : ''}: quotes, ; and $(...) in an arg become shell code`,
          hint,
        })
      }
    }
    return hits.sort((a, b) => a.at - b.at)
  },
})
