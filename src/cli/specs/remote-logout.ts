import { defineSpec } from '../spec.js'
import { remoteExits, remoteFlags } from './remote-shared.js'

export const remoteLogoutSpec = defineSpec({
  id: 'remote:logout',
  summary: 'Forget the tokens kept for a manager',
  description: `Removes the manager's entry from the credentials file. The manager has no logout or revocation: the tokens already issued stay valid until they expire (the access token within 15 minutes by default, the refresh token in 7 to 30 days).`,
  examples: [
    ['Forget the session', '<%= config.bin %> <%= command.id %> --manager https://ongrid.example.com'],
  ],
  flags: {
    ...remoteFlags,
  },
  exits: remoteExits(),
  schema: 'remote-logout.schema.json',
})
