import { Args } from '@oclif/core'
import { remoteUninstallAction } from '../../cli/actions/remote.js'
import { BaseCommand } from '../../cli/base.js'
import { examples } from '../../cli/examples.js'
import { REMOTE_EXIT_TEXT, remoteFlags } from '../../cli/remote-flags.js'

export default class RemoteUninstall extends BaseCommand {
  static override summary = 'Remove an installed marketplace pack'

  static override description =
    `DELETE /api/v1/marketplace/installed/ID (admin only): the pack's files, its row and its bindings go. The manager answers 204 whether or not it was installed; this says which.

${REMOTE_EXIT_TEXT}`

  static override examples = examples(['Remove a pack', '<%= config.bin %> <%= command.id %> my-pack'])

  static override args = {
    id: Args.string({ ignoreStdin: true, description: 'the pack id', required: true }),
  }

  static override flags = {
    ...remoteFlags,
  }

  async run(): Promise<void> {
    await this.runAction(remoteUninstallAction, await this.parse(RemoteUninstall))
  }
}
