import { Flags } from '@oclif/core'
import { remoteLsAction } from '../../cli/actions/remote.js'
import { BaseCommand } from '../../cli/base.js'
import { examples } from '../../cli/examples.js'
import { REMOTE_EXIT_TEXT, remoteFlags } from '../../cli/remote-flags.js'

export default class RemoteLs extends BaseCommand {
  static override summary = 'The skills the manager has deployed'

  static override description =
    `Lists GET /api/v1/skills: builtins, subprocess packs (registered at the manager's boot), bridged chat tools and SKILL.md skills, with class, scope and category. A table on a terminal; JSON (--json) otherwise. --category is an exact, case-sensitive match, as the manager applies it.

${REMOTE_EXIT_TEXT}`

  static override examples = examples(
    ['All skills', '<%= config.bin %> <%= command.id %>'],
    [
      'Subprocess packs only (their category defaults to external)',
      '<%= config.bin %> <%= command.id %> --category external --json',
    ],
  )

  static override flags = {
    ...remoteFlags,
    category: Flags.string({ description: 'only this category (exact match)' }),
  }

  async run(): Promise<void> {
    await this.runAction(remoteLsAction, await this.parse(RemoteLs))
  }
}
