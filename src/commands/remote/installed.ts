import { remoteInstalledAction } from '../../cli/actions/remote.js'
import { BaseCommand } from '../../cli/base.js'
import { REMOTE_EXIT_TEXT, remoteFlags } from '../../cli/remote-flags.js'

export default class RemoteInstalled extends BaseCommand {
  static override summary = 'The marketplace packs installed on the manager'

  static override description =
    `Lists GET /api/v1/marketplace/installed, newest first: pack id, version, source, signature state, manifest sha256, capabilities and credential bindings.

${REMOTE_EXIT_TEXT}`

  static override examples = [
    { description: 'Installed packs', command: '<%= config.bin %> <%= command.id %>' },
  ]

  static override enableJsonFlag = true

  static override flags = {
    ...remoteFlags,
  }

  async run(): Promise<void> {
    await this.runAction(remoteInstalledAction, await this.parse(RemoteInstalled))
  }
}
