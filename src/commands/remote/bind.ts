import { Args, Flags } from '@oclif/core'
import { remoteBindAction } from '../../cli/actions/remote.js'
import { BaseCommand } from '../../cli/base.js'
import { examples } from '../../cli/examples.js'
import { REMOTE_EXIT_TEXT, remoteFlags } from '../../cli/remote-flags.js'

export default class RemoteBind extends BaseCommand {
  static override summary = 'Bind a pack’s credential slots to vault credentials'

  static override description =
    `PUT /api/v1/marketplace/installed/ID/bindings (admin only) with SLOT=CREDENTIAL pairs: the whole map is replaced. The manager checks neither the slots nor the credential names.

${REMOTE_EXIT_TEXT}`

  static override examples = examples([
    'Bind one slot',
    '<%= config.bin %> <%= command.id %> tf tencentcloud=prod-tencent',
  ])

  static override strict = false

  static override args = {
    id: Args.string({ ignoreStdin: true, description: 'the pack id', required: true }),
  }

  static override flags = {
    ...remoteFlags,
    clear: Flags.boolean({ description: 'remove every binding (no SLOT=CREDENTIAL given)' }),
  }

  async run(): Promise<void> {
    await this.runAction(remoteBindAction, await this.parse(RemoteBind))
  }
}
