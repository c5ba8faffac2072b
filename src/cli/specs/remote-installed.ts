import { defineSpec } from '../spec.js'
import { remoteExits, remoteFlags } from './remote-shared.js'

export const remoteInstalledSpec = defineSpec({
  id: 'remote:installed',
  summary: 'The marketplace packs installed on the manager',
  description: `Lists GET /api/v1/marketplace/installed, newest first: pack id, version, source, signature state, manifest sha256, capabilities and credential bindings.`,
  examples: [['Installed packs', '<%= config.bin %> <%= command.id %>']],
  flags: {
    ...remoteFlags,
  },
  exits: remoteExits(),
  schema: 'remote-installed.schema.json',
})
