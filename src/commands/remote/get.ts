import { Args } from '@oclif/core'
import { remoteGetAction } from '../../cli/actions/remote.js'
import { BaseCommand } from '../../cli/base.js'
import { examples } from '../../cli/examples.js'
import { REMOTE_EXIT_TEXT, remoteFlags } from '../../cli/remote-flags.js'

export default class RemoteGet extends BaseCommand {
  static override summary = 'One deployed skill: class, scope, params'

  static override description =
    `Shows GET /api/v1/skills/KEY. SKILL.md skills are listed by ls but the manager answers 404 for them here: this says so.

${REMOTE_EXIT_TEXT}`

  static override examples = examples(['A builtin', '<%= config.bin %> <%= command.id %> host_probe_tcp'])

  static override args = {
    key: Args.string({ ignoreStdin: true, description: 'the skill key', required: true }),
  }

  static override flags = {
    ...remoteFlags,
  }

  async run(): Promise<void> {
    await this.runAction(remoteGetAction, await this.parse(RemoteGet))
  }
}
