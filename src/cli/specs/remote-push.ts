import { defineSpec } from '../spec.js'
import { remoteExits, remoteFlags } from './remote-shared.js'

export const remotePushSpec = defineSpec({
  id: 'remote:push',
  summary: 'Install a marketplace pack on the manager',
  description: `Checks the pack as the manager would (marketplace check), packs a dir as marketplace pack does (one top-level folder named after the pack id; for a pack with no manifest, which the manager names after that folder, the folder's own name, so that remote diff of the same folder agrees), refuses what the manager would refuse, then uploads it (POST /api/v1/marketplace/upload, admin only, at most 64 MiB) and shows what was installed: the pack, its capabilities and the loader's warnings.

The manager has no update route: a pack already installed is its 409; uninstall it first (its credential bindings go with it), push, then bind again.`,
  examples: [
    ['Push a pack dir', '<%= config.bin %> <%= command.id %> my-pack'],
    ['Push a signed archive', '<%= config.bin %> <%= command.id %> my-pack-1.0.0.tar.gz --json'],
  ],
  args: {
    path: { description: 'pack dir or archive (.tar.gz, .tgz, .zip, .tar)', required: true },
  },
  flags: {
    ...remoteFlags,
  },
  exits: remoteExits(),
  schema: 'remote-push.schema.json',
})
