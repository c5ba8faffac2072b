import { remoteLogoutAction } from '../../cli/actions/remote.js'
import { BaseCommand } from '../../cli/base.js'
import { examples } from '../../cli/examples.js'
import { REMOTE_EXIT_TEXT, remoteFlags } from '../../cli/remote-flags.js'

export default class RemoteLogout extends BaseCommand {
  static override summary = 'Forget the tokens kept for a manager'

  static override description =
    `Removes the manager's entry from the credentials file. The manager has no logout or revocation: the tokens already issued stay valid until they expire (the access token within 15 minutes by default, the refresh token in 7 to 30 days).

${REMOTE_EXIT_TEXT}`

  static override examples = examples([
    'Forget the session',
    '<%= config.bin %> <%= command.id %> --manager https://ongrid.example.com',
  ])

  static override flags = {
    ...remoteFlags,
  }

  async run(): Promise<void> {
    await this.runAction(remoteLogoutAction, await this.parse(RemoteLogout))
  }
}
