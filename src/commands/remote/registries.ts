import { remoteRegistriesAction } from '../../cli/actions/remote.js'
import { BaseCommand } from '../../cli/base.js'
import { examples } from '../../cli/examples.js'
import { REMOTE_EXIT_TEXT, remoteFlags } from '../../cli/remote-flags.js'

export default class RemoteRegistries extends BaseCommand {
  static override summary = 'The install sources the manager allows, and whether it runs in dev mode'

  static override description =
    `Shows GET /api/v1/marketplace/registries. A <dev-mode> entry means the manager runs with ONGRID_MARKETPLACE_DEVMODE on: any source, no signature required.

${REMOTE_EXIT_TEXT}`

  static override examples = examples(['Sources', '<%= config.bin %> <%= command.id %>'])

  static override flags = {
    ...remoteFlags,
  }

  async run(): Promise<void> {
    await this.runAction(remoteRegistriesAction, await this.parse(RemoteRegistries))
  }
}
