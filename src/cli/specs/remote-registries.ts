import { defineSpec } from '../spec.js'
import { remoteExits, remoteFlags } from './remote-shared.js'

export const remoteRegistriesSpec = defineSpec({
  id: 'remote:registries',
  summary: 'The install sources the manager allows, and whether it runs in dev mode',
  description: `Shows GET /api/v1/marketplace/registries. A <dev-mode> entry means the manager runs with ONGRID_MARKETPLACE_DEVMODE on: any source, no signature required.`,
  examples: [['Sources', '<%= config.bin %> <%= command.id %>']],
  flags: {
    ...remoteFlags,
  },
  exits: remoteExits(),
  schema: 'remote-registries.schema.json',
})
