import { EXTERNAL_DIRS_ENV, ROLES } from '../flag-sources.js'
import { defineSpec, flag } from '../spec.js'
import { managerVersionFlag, traceFlagDefs } from './shared.js'

export const runSpec = defineSpec({
  id: 'run',
  summary: "Run a skill pack's entry exactly as the manager's executor does",
  description: `Builds the pack as the manager's loader would, then runs its entry as the manager's executor does: JSON args on stdin, only env_allow variables passed, its own process group killed whole on timeout, stdout capped at 16 MiB and stderr at 16 KiB, the 1 s wait for pipes held by background children, and the manager's exact error texts.

On success the entry's stdout is printed verbatim (exit 0). On failure "error: <the manager's text>" goes to stderr (exit 1; 3 when it timed out). The entry's stderr streams live to stderr while it runs.

Args come from --args or --args-file (FILE, or - for stdin), with --arg key=value set over them. Without --args and --args-file, a piped stdin (or a file redirected to it) is the args, as the manager hands them to the entry on stdin: read to its end, --arg set over it; --args and --args-file win (stdin is then not read, and a note says so). A terminal, /dev/null or a closed stdin is never read.

With --role, the class gate comes first, as in the manager: a call it refuses is exit 5 whatever its args. Args that are not JSON are a usage error (exit 2, with the position); --no-validate sends them to the executor as they are, which refuses them as the manager does. With --json every outcome is one JSON document on stdout (schemas/output/run.schema.json): ok, exit_code (the CLI's), command, schema_version, error ({message, kind} or null), then the run's own fields; the entry's own status is entry.exit_status, the manager's error text entry.error.

With --trace the entry runs under strace and what it did to the host is reported after its output (files, processes, signals to others, connections, privilege changes), held to its class; --sandbox runs it so inside bubblewrap: the host read-only, writes reported and thrown away, no network unless --allow-net (README: What --trace and --sandbox see, and miss).`,
  examples: [
    [
      'Run a pack with args',
      '<%= config.bin %> <%= command.id %> examples/skills/disk_usage --args \'{"path":"/tmp"}\'',
    ],
    [
      'Args from stdin, as the manager passes them',
      'echo \'{"path":"/tmp"}\' | <%= config.bin %> <%= command.id %> examples/skills/disk_usage',
    ],
    [
      'Typed args from the schema (n is an integer, tags an array)',
      '<%= config.bin %> <%= command.id %> ./my_skill --arg n=3 --arg \'tags=["a"]\'',
    ],
    [
      'A skill registered from the manager’s dirs, with the manager’s environment',
      '<%= config.bin %> <%= command.id %> disk_usage --dirs /etc/ongrid/skills --env-from /proc/$(pidof ongrid)/environ',
    ],
    [
      'Replay a viewer calling it through the REST API',
      '<%= config.bin %> <%= command.id %> ./restart_nginx --role viewer',
    ],
    ['What it did to the host, held to its class', '<%= config.bin %> <%= command.id %> ./my_skill --trace'],
    [
      'The same in a sandbox: nothing it writes is kept',
      '<%= config.bin %> <%= command.id %> ./restart_nginx --sandbox',
    ],
    [
      'One JSON document for scripts',
      '<%= config.bin %> <%= command.id %> ./my_skill --args-file args.json --json',
    ],
  ],
  args: {
    target: {
      description: 'pack dir, skill.json, or the name of a skill registered from --dirs',
      required: true,
    },
  },
  flags: {
    'manager-version': managerVersionFlag,
    root: flag.string({
      description: 'allow-list root for the escape check (default: the dir that holds the pack)',
    }),
    dirs: flag.string({
      description: `allow-list dirs to look NAME up in, split like ${EXTERNAL_DIRS_ENV} (default: that variable)`,
    }),
    args: flag.string({ description: 'JSON args sent on stdin, verbatim', exclusive: ['args-file'] }),
    'args-file': flag.string({ description: 'file holding the JSON args (- for stdin)' }),
    arg: flag.string({
      description: 'key=value, typed by the schema; repeatable',
      multiple: true,
      multipleNonGreedy: true,
    }),
    validate: flag.boolean({
      description: 'check args against the schema first (the manager itself validates nothing)',
      allowNo: true,
    }),
    'env-from': flag.string({
      description:
        'take env_allow values from this file (NAME=value lines, or NUL-separated like /proc/PID/environ) instead of this environment',
    }),
    timeout: flag.string({
      description: 'override the timeout, as a Go duration (90s, 1m30s, 500ms) or a number of seconds',
    }),
    role: flag.option({
      description: "replay the manager's REST class gate for this caller role",
      options: ROLES,
    }),
    quiet: flag.boolean({
      char: 'q',
      description: "do not show the entry's stderr or notices while it runs",
    }),
    audit: flag.boolean({
      description: 'append the run to the local audit store',
      allowNo: true,
    }),
    'audit-db': flag.string({
      description: 'local audit store (default $XDG_STATE_HOME/ongrid-skill/audit.db)',
    }),
    ...traceFlagDefs,
  },
  exits: [
    { code: 0, kind: 'ok', help: 'ok' },
    { code: 1, kind: 'failed', help: 'the skill failed' },
    { code: 2, kind: 'usage', help: 'usage error or the loader rejects the pack' },
    { code: 3, kind: 'timeout', help: 'timed out' },
    { code: 4, kind: 'bad_args', help: 'args do not match the schema' },
    { code: 5, kind: 'forbidden', help: "refused by --role (the manager's 403)" },
    { code: 6, kind: 'untraceable', help: '--trace or --sandbox without strace or bubblewrap' },
    { code: 7, kind: 'class_violated', help: '--trace saw a safe skill change the host' },
    {
      code: 130,
      kind: 'signal',
      help: "interrupted (128 + the signal's number: 143 SIGTERM, 129 SIGHUP, 131 SIGQUIT; the entry's process group is killed)",
    },
  ],
  schema: 'run.schema.json',
})
