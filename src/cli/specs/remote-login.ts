import { defineSpec, flag } from '../spec.js'
import { remoteExits, remoteFlags } from './remote-shared.js'

export const remoteLoginSpec = defineSpec({
  id: 'remote:login',
  summary: 'Log in to a manager and keep its tokens',
  description: `Logs in with the manager's password login (POST /api/v1/auth/login) and keeps the access and refresh tokens in $XDG_CONFIG_HOME/ongrid-skill/credentials.json (0600, its dir 0700), one entry per manager URL. The password is asked on the terminal without echo, read from stdin with --password-stdin, or taken from $ONGRID_PASSWORD; never from the command line. It is never stored: the manager has no API tokens, so the refresh token (7 to 30 days, as the manager is configured) keeps the session; an expired access token is refreshed once, then login is asked for again.

The manager's nginx serves a self-signed certificate by default: trust it with --ca FILE (or NODE_EXTRA_CA_CERTS). Plain http goes only to loopback unless --allow-http. Wrong password, unknown and disabled user get the same answer from the manager; six failures for one email lock it for 15 minutes (429 "too many attempts").`,
  examples: [
    [
      'Log in, asked for the password',
      '<%= config.bin %> <%= command.id %> --manager https://ongrid.example.com --email ops@example.com --ca ongrid-ca.pem',
    ],
    [
      'In CI, the password from a secret on stdin',
      'printf %s "$ONGRID_PW" | <%= config.bin %> <%= command.id %> --manager https://ongrid.example.com --email ci@example.com --password-stdin',
    ],
  ],
  flags: {
    ...remoteFlags,
    email: flag.string({
      description: 'the user to log in as (default $ONGRID_EMAIL, else asked on a terminal)',
    }),
    'password-stdin': flag.boolean({ description: 'read the password from stdin (one line)' }),
  },
  exits: remoteExits(),
  schema: 'remote-login.schema.json',
})
