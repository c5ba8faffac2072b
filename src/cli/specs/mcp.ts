import { EXTERNAL_DIRS_ENV } from '../flag-sources.js'
import { defineSpec, flag } from '../spec.js'
import { DEFAULT_JOBS, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS } from './defaults.js'
import { managerVersionFlag } from './shared.js'

export const mcpSpec = defineSpec({
  id: 'mcp',
  summary: 'Serve skill packs to MCP clients as the manager offers them to its LLM',
  description: `Loads each DIR as the manager's loader does (its lines go to stderr; stdout is the protocol) and serves, over MCP on stdio, the tools the manager's LLM bridge would offer: safe skills only, sorted by name, each with the bridge's exact name, description and parameters (what lint --show-tool prints). A call runs the entry as the manager's executor does, with the arguments the bridge would send (edge_id and device_id dropped, keys sorted); stdout comes back as text, and as structured content when it is a JSON object; a failure is an error result holding the manager's error text. A cancelled call kills the entry's process group. Each call is appended to the local audit store (caller_role "mcp").

Without DIR arguments the dirs come from ${EXTERNAL_DIRS_ENV}. A pack dir works as a DIR too; a relative DIR is skipped, as the manager skips it (a client starts the server in a working dir of its own): when no tool is served, a hint on stderr says why. With --json, prints what would be served and exits.

Bounds: a message (a stdio line, an HTTP body) holds at most 10 MiB; a larger one is answered with an error (HTTP 413) and skipped, and the server goes on. Over --http, only Host and Origin 127.0.0.1:PORT or localhost:PORT are served (403 otherwise; requests without Origin are served), on Linux only from processes of the user the server runs as (403 for another user's), an idle session is ended after --session-idle, and at most --max-sessions exist at once.`,
  examples: [
    ['Serve the example packs on stdio', '<%= config.bin %> <%= command.id %> "$PWD/examples/skills"'],
    [
      'Offer mutating skills too, and reload when packs change',
      '<%= config.bin %> <%= command.id %> /etc/ongrid/skills --class safe,mutating --watch',
    ],
    [
      'Streamable HTTP on 127.0.0.1:8765/mcp',
      '<%= config.bin %> <%= command.id %> /etc/ongrid/skills --http 8765',
    ],
    [
      'Try it under the MCP Inspector',
      'npx @modelcontextprotocol/inspector <%= config.bin %> <%= command.id %> "$PWD/skills"',
    ],
    ['What would be served, as JSON', '<%= config.bin %> <%= command.id %> "$PWD/skills" --json'],
  ],
  strict: false,
  args: {
    dir: { description: 'allow-list dir or pack dir (absolute, as the manager requires); repeatable' },
  },
  flags: {
    'manager-version': managerVersionFlag,
    class: flag.string({
      description: 'classes to serve, comma-separated: safe (what the manager offers), mutating, dangerous',
      default: 'safe',
    }),
    jobs: flag.string({ description: `calls running at once; more wait (default ${DEFAULT_JOBS})` }),
    audit: flag.boolean({
      description: 'append each call to the local audit store',
      allowNo: true,
    }),
    'audit-db': flag.string({
      description: 'local audit store (default $XDG_STATE_HOME/ongrid-skill/audit.db)',
    }),
    watch: flag.boolean({ description: 'reload when packs change and send tools/list_changed' }),
    http: flag.string({ description: 'serve Streamable HTTP on 127.0.0.1:PORT/mcp instead of stdio' }),
    'session-idle': flag.string({
      description: `with --http: end a session after this long without a request (Go duration or seconds; default ${DEFAULT_SESSION_IDLE_MS / 60_000}m)`,
    }),
    'max-sessions': flag.string({
      description: `with --http: sessions at once; past it an initialize gets 503 (default ${DEFAULT_MAX_SESSIONS})`,
    }),
  },
  exits: [
    { code: 0, kind: 'ok', help: 'the client went away' },
    { code: 2, kind: 'usage', help: 'usage errors' },
    {
      code: 130,
      kind: 'signal',
      help: "interrupted (128 + the signal's number: 143 SIGTERM, 129 SIGHUP, 131 SIGQUIT; running entries' process groups are killed)",
    },
  ],
  schema: 'mcp.schema.json',
})
