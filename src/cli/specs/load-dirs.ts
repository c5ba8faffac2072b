import { EXTERNAL_DIRS_ENV } from '../flag-sources.js'
import { defineSpec, flag } from '../spec.js'
import { managerVersionFlag } from './shared.js'

export const loadDirsSpec = defineSpec({
  id: 'load-dirs',
  summary: "Replay the manager's boot-time skill loader over allow-list dirs",
  description: `Walks each DIR exactly as the ongrid manager's loader does at boot and prints the manager's log lines, byte for byte, on stdout (one per event). A summary goes to stderr.

Without DIR arguments the dirs come from ${EXTERNAL_DIRS_ENV}, split as the manager splits it (on ',' and ';', never ':'). Relative dirs are skipped, as the manager skips them: pass absolute paths ("$PWD/skills"); a hint on stderr says so, with or without --explain. The registry starts with the manager's builtin skill keys, so packs that reuse one are skipped as the manager skips them.

With --strict, exit 0 means every line was a registration: a rejected manifest, a skipped dir, a walk error, or a skill.json the manager's boot never gets past (a device that does not end) exits 1. With --json every outcome, failures included, is one JSON document on stdout; with --json --explain the hints are in it (each event's "hints", and "hints" of {path, hint} for those not tied to a line).`,
  examples: [
    [
      'Load the example packs (dirs must be absolute, as the manager skips relative ones)',
      '<%= config.bin %> <%= command.id %> "$PWD/examples/skills"',
    ],
    [
      'Use the same setting as the manager',
      `${EXTERNAL_DIRS_ENV}=/etc/ongrid/skills,/opt/skills <%= config.bin %> <%= command.id %>`,
    ],
    [
      'Print the manager’s JSON log records, with hints on stderr',
      '<%= config.bin %> <%= command.id %> /etc/ongrid/skills --log-format json --explain',
    ],
    [
      'Fail CI when any manifest is rejected or any dir is skipped',
      '<%= config.bin %> <%= command.id %> "$PWD/skills" --strict',
    ],
  ],
  strict: false,
  args: {
    dir: { description: 'allow-list dir (absolute, as the manager requires); repeatable' },
  },
  flags: {
    'manager-version': managerVersionFlag,
    'log-format': flag.option({
      description:
        'text: the message lines; json: the manager’s slog JSON records, including the closing one',
      options: ['text', 'json'] as const,
      default: 'text' as const,
    }),
    builtins: flag.string({
      description: 'comma-separated keys pre-registered instead of the manager’s builtin skills',
      exclusive: ['no-builtins'],
    }),
    'no-builtins': flag.boolean({ description: 'start with an empty registry' }),
    explain: flag.boolean({
      description:
        'after lines whose cause is not obvious, print a hint on stderr (in the document with --json)',
    }),
    strict: flag.boolean({
      description:
        'exit 1 unless every line is a registration: a rejected manifest, a skipped dir (relative, missing, unreadable, not a dir) or a walk error fails',
    }),
  },
  exits: [
    { code: 0, kind: 'ok', help: 'loaded (with --strict: every line a registration)' },
    { code: 1, kind: 'findings', help: 'with --strict, a line that is not a registration' },
    { code: 2, kind: 'usage', help: 'usage error' },
  ],
  schema: 'load-dirs.schema.json',
})
