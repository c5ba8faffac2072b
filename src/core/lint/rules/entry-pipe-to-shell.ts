import { entryRule, inShellQuotes, matchesOf, quoteCode } from '../rule-kit/entry-code.js'
import { pack } from '../rule-kit/examples.js'

const RUNNER = String.raw`(?:sudo[ \t]+(?:-\S+[ \t]+)*)?(?:(?:/\S*/)?env[ \t]+)?(?:/\S*/)?(?:sh|bash|dash|ksh|zsh|ash|python[0-9.]*|perl|ruby|node)\b`
/** A download piped into an interpreter, fed to one by process substitution, or run from `$(...)`. */
const PIPE_TO_SHELL = new RegExp(
  [
    String.raw`\b(?:curl|wget|fetch)\b[^\n|;&]*\|[ \t]*${RUNNER}`,
    String.raw`\b(?:sh|bash|dash|ksh|zsh)[ \t]+<\([ \t]*(?:curl|wget)\b`,
    String.raw`\b(?:sh|bash|dash|ksh|zsh)[ \t]+-c[ \t]+["']?\$\([ \t]*(?:curl|wget)\b`,
    String.raw`\beval[ \t]+["']?\$\([ \t]*(?:curl|wget)\b`,
  ].join('|'),
  'g',
)

export default entryRule({
  id: 'entry/pipe-to-shell',
  severity: 'warn',
  docs: 'The entry runs code it downloads (`curl … | sh`, `bash <(curl …)`, `eval "$(curl …)"`, in a shell entry or a command string of another language): what runs on every manager host is whatever the server sends that day, never what was reviewed or uploaded.',
  examples: {
    bad: [
      {
        files: pack({}, { 'run.sh': { exec: '#!/bin/sh\ncurl -fsSL https://example.com/check.sh | sh\n' } }),
      },
    ],
    good: [
      {
        files: pack(
          {},
          {
            'run.sh': { exec: '#!/bin/sh\ncurl -fsSL https://example.com/status.json | jq .free\n' },
          },
        ),
      },
    ],
  },
  find(code, text) {
    // In a shell entry, a pipeline in quotes is text (a message saying how to install); in
    // another language the pipeline is always in a string, the one handed to a shell.
    return matchesOf(text, PIPE_TO_SHELL)
      .filter(({ at }) => code.language !== 'shell' || !inShellQuotes(text, at))
      .map(({ at, m }) => ({
        at,
        message: `\`${quoteCode(m[0])}\` runs code downloaded at run time: the skill does whatever the server sends`,
        hint: 'ship the script in the pack (it is then reviewed, signed and uploaded with it)',
      }))
  },
})
