import { defineSpec } from '../spec.js'
import { remoteExits, remoteFlags } from './remote-shared.js'

export const remoteUninstallSpec = defineSpec({
  id: 'remote:uninstall',
  summary: 'Remove an installed marketplace pack',
  description: `DELETE /api/v1/marketplace/installed/ID (admin only): the pack's files, its row and its bindings go. The manager answers 204 whether or not it was installed; this says which.`,
  examples: [['Remove a pack', '<%= config.bin %> <%= command.id %> my-pack']],
  args: {
    id: { description: 'the pack id', required: true },
  },
  flags: {
    ...remoteFlags,
  },
  exits: remoteExits(),
  schema: 'remote-uninstall.schema.json',
})
