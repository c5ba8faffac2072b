import { MANAGER_ENV } from '../../core/remote/profiles.js'
import { type ExitSpec, flag } from '../spec.js'

/** The flags every `remote` command shares: which manager, how to trust it, how long to wait. */
export const remoteFlags = {
  manager: flag.string({
    description: `the manager's URL, https://host[:port] (default: $${MANAGER_ENV}, else the manager: profile of .ongrid-skill.yaml, else the one manager you are logged in to)`,
  }),
  profile: flag.string({
    description: 'the manager: profile of the nearest .ongrid-skill.yaml to use (default: default)',
  }),
  ca: flag.string({
    description: "PEM file of the CA (or the self-signed certificate) to trust for the manager's https",
  }),
  insecure: flag.boolean({
    description: 'do not check the TLS certificate (warns on every call)',
  }),
  'allow-http': flag.boolean({
    description: 'allow plain http to a host that is not loopback (tokens travel in the clear)',
  }),
  timeout: flag.string({
    description:
      'give up on one request after this long: a Go duration or seconds (default 30s; exec and push 310s)',
  }),
}

/** Exit codes every `remote` command shares (core/remote/http.ts, REMOTE_EXIT); `extra` are the command's own. */
export const remoteExits = (...extra: ExitSpec[]): ExitSpec[] =>
  [
    { code: 0, kind: 'ok', help: 'ok' } as const,
    { code: 2, kind: 'usage', help: 'usage or bad input' } as const,
    {
      code: 3,
      kind: 'unreachable',
      help: 'the manager could not be reached (connection, TLS, timeout)',
    } as const,
    { code: 4, kind: 'unauthorized', help: 'not logged in or the session ended (log in again)' } as const,
    { code: 5, kind: 'refused', help: 'the manager refused the request (its text is quoted)' } as const,
    { code: 130, kind: 'signal', help: 'interrupted' } as const,
    ...extra,
  ].sort((a, b) => a.code - b.code)
