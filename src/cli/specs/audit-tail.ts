import { DB_DIALECT_ENV, DB_DSN_ENV, DB_PATH_ENV } from '../flag-sources.js'
import { defineSpec, flag } from '../spec.js'

export const auditTailSpec = defineSpec({
  id: 'audit:tail',
  summary: 'Show the last skill executions, and follow new ones as they are committed',
  description: `Reads the audit rows the ongrid manager writes for every skill execution — which skill, called by whom, how long it took, how it failed — and prints the last -n rows, oldest first. With -f it then prints each new row within a second of its commit, once, until Ctrl-C.

Where the rows come from (--db):
- local (the default): the store \`ongrid-skill run\` appends to, $XDG_STATE_HOME/ongrid-skill/audit.db
- manager: what the manager itself opens — ${DB_DIALECT_ENV} (mysql, the default, or sqlite), ${DB_DSN_ENV} and ${DB_PATH_ENV}, with the manager's defaults
- sqlite:PATH: a manager's SQLite file, opened read-only; fine while the manager writes to it (WAL mode)
- mysql://user:pass@host:port/db or a go-sql-driver DSN such as user:pass@tcp(host:3306)/db?loc=Local

MySQL DATETIMEs are read in the DSN's loc, as the manager's driver wrote them: a go-sql-driver DSN without loc means UTC (the driver's default); a mysql:// URL defaults to Local, like the manager's default DSN. Local is this machine's zone: set TZ to the manager's if they differ.

Rows come from skill_executions. With --llm they come from chat_tool_calls, joined to chat_messages and chat_sessions for the session and its user; a tool call is shown once, when it has finished (--status pending shows unfinished ones instead).

Status: for skill executions, ok when error is empty, timeout when it is the executor's "…: timed out after …", else error. For tool calls it is the status column, success shown as ok.

Following: ids are allocated at insert but rows appear at commit, so a newer row can appear before an older one. A missing id below the newest row seen is waited for --gap-wait (10s), and its row is printed as soon as it commits; then the id is given up (a rolled-back transaction). A transaction open longer than --gap-wait is missed. A lost connection is reported on stderr and retried with backoff; nothing already printed is printed again.`,
  examples: [
    ['The last 10 runs of `ongrid-skill run` on this machine', '<%= config.bin %> <%= command.id %>'],
    [
      "Follow the manager's MySQL, configured as the manager is",
      `${DB_DSN_ENV}='ongrid:secret@tcp(db.internal:3306)/ongrid?parseTime=true&loc=Local' <%= config.bin %> <%= command.id %> --db manager -f`,
    ],
    [
      "Follow failures of one skill in the manager's SQLite file",
      '<%= config.bin %> <%= command.id %> --db sqlite:/var/lib/ongrid/data/ongrid.db -f --skill disk_usage --status error',
    ],
    [
      'Timeouts of the last hour, as JSON lines (the DSN, password included, read from a 0600 file: not in ps)',
      '<%= config.bin %> <%= command.id %> --db file:$HOME/.config/ongrid/audit.dsn --since 1h --status timeout --json',
    ],
    [
      'What the LLM called, with the session and its user',
      '<%= config.bin %> <%= command.id %> --db manager --llm -n 20',
    ],
    [
      'Only rows for one edge, by one role, since a given time',
      '<%= config.bin %> <%= command.id %> --db manager --edge 3 --caller-role admin --since 2026-05-01T08:00:00Z',
    ],
  ],
  json: false,
  flags: {
    lines: flag.string({
      char: 'n',
      description: 'how many of the last rows to show first (default 10; with --since, all rows since then)',
    }),
    follow: flag.boolean({
      char: 'f',
      description:
        'then print new rows as they are committed, until Ctrl-C; a SQLite file is followed by name, as tail -F does (removed, it is waited for; created anew, followed from its first row)',
    }),
    db: flag.string({
      description:
        'local (default) | manager | sqlite:PATH | mysql://user:pass@host:port/db | go-sql-driver DSN | env:NAME or file:PATH holding one (a password on the command line is seen in ps)',
    }),
    llm: flag.boolean({ description: 'LLM tool calls (chat_tool_calls) instead of skill executions' }),
    skill: flag.string({ description: 'only this skill key (tool name with --llm)' }),
    status: flag.option({
      description: 'only rows with this status (pending: unfinished tool calls, with --llm)',
      options: ['ok', 'error', 'timeout', 'pending'] as const,
    }),
    since: flag.string({
      description: 'only rows started since: a duration ago (10m, 1h30m) or an RFC 3339 time',
    }),
    'caller-role': flag.string({
      description: 'only rows of callers with this role (admin, user, viewer, system, local…)',
    }),
    edge: flag.string({ description: 'only rows for this edge id (device_id with --llm)' }),
    json: flag.boolean({ description: 'JSON lines with stable keys, instead of text' }),
    'gap-wait': flag.string({
      description: 'while following, how long a missing id (a transaction not yet committed) is waited for',
      default: '10s',
    }),
  },
  exits: [
    { code: 0, kind: 'ok', help: 'done' },
    {
      code: 2,
      kind: 'usage',
      help: "usage errors and database errors — unreachable, wrong password, no such database, table or column, a locked or corrupt file, a path that is not a regular file, a MySQL server silent past the DSN's timeout (5 s) at login or 15 s on a query — said in one line on stderr",
    },
    {
      code: 130,
      kind: 'signal',
      help: "after Ctrl-C (128 + the signal's number for the others: 143 SIGTERM, 129 SIGHUP, 131 SIGQUIT)",
    },
  ],
  schema: 'audit-tail.schema.json',
})
