import { defineSpec, flag } from '../spec.js'
import { remoteExits, remoteFlags } from './remote-shared.js'

export const remoteExecSpec = defineSpec({
  id: 'remote:exec',
  summary: 'Run a deployed skill through the manager',
  description: `Calls POST /api/v1/skills/KEY/execute with the args (--args, --args-file, --arg key=value typed by the skill's declared params) and, for a skill that runs on an edge, --edge ID. The class gate of the logged-in role is shown before calling: a dangerous skill is refused for every role, a mutating one for viewers, without a call. The manager answers 200 for a skill that failed (the error in its body): that is exit 1. With --json: the envelope (for a failed run, error.kind failed and error.manager_error, the skill's error), then result, duration_ms, skill, edge_id, role and args.

Exit 1 also means the skill failed; 3 includes a call still unanswered at --timeout (default 310s: nginx cuts at 300s). Giving up is not harmless: the manager stops a skill when its caller goes, so at --timeout the skill is killed on the manager (the message says so, and --json has error.client_timeout true).`,
  examples: [
    ['A manager-side skill', '<%= config.bin %> <%= command.id %> disk_usage --args \'{"path":"/var"}\''],
    [
      'On an edge, typed args',
      '<%= config.bin %> <%= command.id %> host_probe_tcp --edge 7 --arg target=db:5432 --arg timeout_ms=500 --json',
    ],
  ],
  args: {
    key: { description: 'the skill key', required: true },
  },
  flags: {
    ...remoteFlags,
    timeout: flag.string({
      description:
        'give up after this long: a Go duration or seconds (default 310s); the manager then kills the skill, as it does for any caller that goes',
    }),
    args: flag.string({ description: 'JSON args, sent as they are', exclusive: ['args-file'] }),
    'args-file': flag.string({ description: 'file holding the JSON args (- for stdin)' }),
    arg: flag.string({
      description: "key=value, typed by the skill's declared params; repeatable",
      multiple: true,
      multipleNonGreedy: true,
    }),
    edge: flag.string({ description: 'the edge to run a host-scope skill on (its id)' }),
    quiet: flag.boolean({ char: 'q', description: 'do not show the class gate line' }),
  },
  exits: remoteExits({ code: 1, kind: 'failed', help: 'the skill failed' }),
  schema: 'remote-exec.schema.json',
})
