import { defineSpec, flag } from '../spec.js'
import { remoteExits, remoteFlags } from './remote-shared.js'

export const remoteBindSpec = defineSpec({
  id: 'remote:bind',
  summary: 'Bind a pack’s credential slots to vault credentials',
  description: `PUT /api/v1/marketplace/installed/ID/bindings (admin only) with SLOT=CREDENTIAL pairs: the whole map is replaced. The manager checks neither the slots nor the credential names.`,
  examples: [['Bind one slot', '<%= config.bin %> <%= command.id %> tf tencentcloud=prod-tencent']],
  strict: false,
  args: {
    id: { description: 'the pack id', required: true },
  },
  flags: {
    ...remoteFlags,
    clear: flag.boolean({ description: 'remove every binding (no SLOT=CREDENTIAL given)' }),
  },
  exits: remoteExits(),
  schema: 'remote-bind.schema.json',
})
