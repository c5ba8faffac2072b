import { Flags } from '@oclif/core'
import { MANAGER_ENV } from '../core/remote/profiles.js'

/** The flags every `remote` command shares: which manager, how to trust it, how long to wait. */
export const remoteFlags = {
  manager: Flags.string({
    description: `the manager's URL, https://host[:port] (default: $${MANAGER_ENV}, else the manager: profile of .ongrid-skill.yaml, else the one manager you are logged in to)`,
  }),
  profile: Flags.string({
    description: 'the manager: profile of the nearest .ongrid-skill.yaml to use (default: default)',
  }),
  ca: Flags.string({
    description: "PEM file of the CA (or the self-signed certificate) to trust for the manager's https",
  }),
  insecure: Flags.boolean({
    description: 'do not check the TLS certificate (warns on every call)',
  }),
  'allow-http': Flags.boolean({
    description: 'allow plain http to a host that is not loopback (tokens travel in the clear)',
  }),
  timeout: Flags.string({
    description:
      'give up on one request after this long: a Go duration or seconds (default 30s; exec and push 310s)',
  }),
}

/** Exit codes every `remote` command shares, for --help. */
export const REMOTE_EXIT_TEXT =
  'Exit codes: 0 ok, 2 usage or bad input, 3 the manager could not be reached (connection, TLS, timeout), 4 not logged in or the session ended (log in again), 5 the manager refused the request (its text is quoted), 130 interrupted.'
