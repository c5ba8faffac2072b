import { remoteInstalledAction } from '../../cli/actions/remote.js'
import { BaseCommand } from '../../cli/base.js'
import { examples } from '../../cli/examples.js'
import { REMOTE_EXIT_TEXT, remoteFlags } from '../../cli/remote-flags.js'

export default class RemoteInstalled extends BaseCommand {
  static override summary = 'The marketplace packs installed on the manager'

  static override description =
    `Lists GET /api/v1/marketplace/installed, newest first: pack id, version, source, signature state, manifest sha256, capabilities and credential bindings.

${REMOTE_EXIT_TEXT}`

  static override examples = examples(['Installed packs', '<%= config.bin %> <%= command.id %>'])

  static override flags = {
    ...remoteFlags,
  }

  async run(): Promise<void> {
    await this.runAction(remoteInstalledAction, await this.parse(RemoteInstalled))
  }
}
