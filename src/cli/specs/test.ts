import { defineSpec, flag } from '../spec.js'
import { TEST_FORMATS } from './defaults.js'
import { managerVersionFlag, noDefaultIgnoreFlag, quietFlag, rootFlag, traceFlagDefs } from './shared.js'

export const testSpec = defineSpec({
  id: 'test',
  summary: "Run each pack's table of cases through the manager's executor",
  description: `Finds packs as validate does (node_modules, .git, .hg and .svn dirs below a PATH left out unless --no-default-ignore; the summary says what was left out, and the allow-list root assumed when --root is not given) and runs each pack's cases from <pack>/tests/*.json (a file holds one case or an array of cases). Each case runs the entry exactly as the manager's executor does, in this process: the case's args go on stdin; the environment is yours with the case's env over it (null unsets a variable), filtered by env_allow as the manager filters its own; the case's timeout goes over the manifest's.

A case: {"name", "args" | "args_file", "env", "timeout", "expect": {"ok", "result", "result_schema", "error", "timed_out", "stderr_contains", "max_duration_ms", "effects"}, "snapshot"}. result matches objects as subsets (arrays and scalars exactly); error is the manager's text exactly, or {"match": "regex"}; a snapshot case ("snapshot": true) compares the whole result, and --update writes it into expect.result, changing nothing else in the file.

--trace runs each case under strace and shows what it did to the host; a safe skill that changed it fails its case, and expect.effects pins a case's effects (such a case is always traced). --sandbox does it inside bubblewrap (README: What --trace and --sandbox see, and miss).`,
  examples: [
    ["Run the current pack's cases", '<%= config.bin %> <%= command.id %>'],
    [
      'Every pack under a dir, 4 cases at a time, JUnit for CI',
      '<%= config.bin %> <%= command.id %> skills -j 4 --format junit > junit.xml',
    ],
    [
      'Only some cases, stopping at the first failure',
      "<%= config.bin %> <%= command.id %> ./disk_usage --filter 'rejects' --bail",
    ],
    [
      'Write the results of snapshot cases into their files',
      '<%= config.bin %> <%= command.id %> ./disk_usage --update',
    ],
    ['Re-run a pack whenever its files change', '<%= config.bin %> <%= command.id %> skills --watch'],
    [
      'Each case under strace: what it did to the host, held to its class',
      '<%= config.bin %> <%= command.id %> skills --trace --format junit > junit.xml',
    ],
    [
      'The spec report on the terminal and the json document in a file, the cases run once',
      '<%= config.bin %> <%= command.id %> skills --json-file results.json',
    ],
  ],
  strict: false,
  args: {
    path: { description: 'pack dir, skill.json, or a dir to walk; repeatable (default: .)' },
  },
  flags: {
    'manager-version': managerVersionFlag,
    root: rootFlag,
    format: flag.option({
      description: 'output format (junit for CI systems; json is one document)',
      options: TEST_FORMATS,
      default: 'spec' as const,
    }),
    jobs: flag.string({
      char: 'j',
      description: 'cases run at once, across packs (output stays in order; default: the CPUs available)',
    }),
    filter: flag.string({ description: 'run only the cases whose name matches this regular expression' }),
    bail: flag.boolean({ description: 'start no case after the first failure' }),
    watch: flag.boolean({ description: 're-run a pack when its files change', exclusive: ['update'] }),
    update: flag.boolean({
      char: 'u',
      description: 'write the actual result into snapshot cases ("snapshot": true)',
    }),
    'pass-with-no-tests': flag.boolean({ description: 'exit 0 when no cases are found' }),
    'json-file': flag.string({
      description:
        'also write the json document (as --format json prints it) to this file, from the same run',
      exclusive: ['watch'],
    }),
    'no-default-ignore': noDefaultIgnoreFlag,
    quiet: quietFlag('spec format: show only the failing cases and the counts (no live view on a terminal)'),
    audit: flag.boolean({ description: 'append each case run to the local audit store (off by default)' }),
    'audit-db': flag.string({
      description: 'local audit store (default $XDG_STATE_HOME/ongrid-skill/audit.db)',
    }),
    ...traceFlagDefs,
  },
  exits: [
    { code: 0, kind: 'ok', help: 'all passed' },
    { code: 1, kind: 'failed', help: 'a case failed (a timeout that was not expected fails its case)' },
    {
      code: 2,
      kind: 'usage',
      help: 'usage error (a --filter that takes over 1 s on the case names, a watched path removed) or no tests found (unless --pass-with-no-tests)',
    },
    { code: 6, kind: 'untraceable', help: 'a trace asked for without strace or bubblewrap' },
    {
      code: 130,
      kind: 'signal',
      help: "interrupted (128 + the signal's number: 143 SIGTERM, 129 SIGHUP, 131 SIGQUIT; the cases in flight have their process groups killed)",
    },
  ],
  schema: 'test.schema.json',
})
