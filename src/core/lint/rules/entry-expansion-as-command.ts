import { entryRule, inShellQuotes, matchesOf } from '../rule-kit/entry-code.js'
import { pack } from '../rule-kit/examples.js'

/**
 * An unquoted expansion where a command name goes: at the start of a command (a line, after ; & |
 * ( { ` or $( , after then/do/else/!, or after a command that runs its arguments), past any
 * NAME=value assignments.
 */
const EXPANSION_AS_COMMAND = new RegExp(
  String.raw`(?:^|[;&|\x60]|(?<![=($])\(|\$\(|(?<!\$)\{)[ \t]*` +
    String.raw`(?:(?:then|do|else|exec|command|sudo|nohup|xargs|time|env|!)[ \t]+)*` +
    String.raw`(?:[A-Za-z_][A-Za-z0-9_]*=(?!\()\S*[ \t]+)*` +
    String.raw`(\$(?:\{[A-Za-z_0-9@*]+\}|[A-Za-z_][A-Za-z0-9_]*|[0-9@*]))(?=[ \t;|&)]|$)` +
    // A comparison (`[[ $a && $b == x ]]`, awk's `$1 == "x" {`) is not a command.
    String.raw`(?![ \t]+(?:==|!=|=~|=|<|>|-(?:eq|ne|lt|le|gt|ge|o|a))(?:[ \t]|$))`,
  'gm',
)

/** Whether byte `at` lies within `[[ ... ]]` on its line (where && and || join tests, not commands). */
function inTest(text: string, at: number): boolean {
  const line = text.slice(text.lastIndexOf('\n', at - 1) + 1, at)
  return (line.match(/\[\[/g)?.length ?? 0) > (line.match(/\]\]/g)?.length ?? 0)
}

export default entryRule({
  id: 'entry/expansion-as-command',
  severity: 'warn',
  docs: 'An unquoted expansion where a shell reads the command name (`$1 --all`, `$cmd`, `sudo $action`): the value picks the program to run, and is split into words and globbed first. When it comes from the args, the LLM picks the command. Found by pattern: where the value came from is not followed.',
  examples: {
    bad: [
      {
        files: pack(
          {},
          {
            'run.sh': { exec: '#!/bin/sh\naction=$(jq -r .action)\n$action --status\n' },
          },
        ),
      },
    ],
    good: [
      {
        files: pack(
          {},
          {
            'run.sh': {
              exec: '#!/bin/sh\naction=$(jq -r .action)\ncase $action in\n  status) systemctl status nginx ;;\n  *) echo "unknown action" >&2; exit 2 ;;\nesac\n',
            },
          },
        ),
      },
    ],
  },
  find(code, text) {
    if (code.language !== 'shell') return []
    return matchesOf(text, EXPANSION_AS_COMMAND, 1)
      .filter(({ at }) => !inShellQuotes(text, at) && !inTest(text, at))
      .map(({ at, m }) => ({
        at,
        message: `${m[1]} stands where the command name goes: its value picks the program that runs (split into words and globbed first)`,
        hint: 'choose the command from a fixed list (case "$x" in ...) and pass values only as quoted arguments',
      }))
  },
})
