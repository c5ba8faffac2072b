import { remoteWhoamiAction } from '../../cli/actions/remote.js'
import { BaseCommand } from '../../cli/base.js'
import { examples } from '../../cli/examples.js'
import { REMOTE_EXIT_TEXT, remoteFlags } from '../../cli/remote-flags.js'

export default class RemoteWhoami extends BaseCommand {
  static override summary = 'Who you are on the manager: user, role, manager version, token expiry'

  static override description =
    `Asks the manager who the kept token belongs to (GET /api/v1/self) and its version (GET /api/v1/version), and shows until when the access token and the session (the refresh token) last. Role changes on the manager apply at the next refresh.

${REMOTE_EXIT_TEXT}`

  static override examples = examples(
    ['Check the session', '<%= config.bin %> <%= command.id %>'],
    ['As JSON', '<%= config.bin %> <%= command.id %> --manager https://ongrid.example.com --json'],
  )

  static override flags = {
    ...remoteFlags,
  }

  async run(): Promise<void> {
    await this.runAction(remoteWhoamiAction, await this.parse(RemoteWhoami))
  }
}
