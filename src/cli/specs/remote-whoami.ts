import { defineSpec } from '../spec.js'
import { remoteExits, remoteFlags } from './remote-shared.js'

export const remoteWhoamiSpec = defineSpec({
  id: 'remote:whoami',
  summary: 'Who you are on the manager: user, role, manager version, token expiry',
  description: `Asks the manager who the kept token belongs to (GET /api/v1/self) and its version (GET /api/v1/version), and shows until when the access token and the session (the refresh token) last. Role changes on the manager apply at the next refresh.`,
  examples: [
    ['Check the session', '<%= config.bin %> <%= command.id %>'],
    ['As JSON', '<%= config.bin %> <%= command.id %> --manager https://ongrid.example.com --json'],
  ],
  flags: {
    ...remoteFlags,
  },
  exits: remoteExits(),
  schema: 'remote-whoami.schema.json',
})
