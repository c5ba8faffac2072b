import { versionAction } from '../cli/actions/version.js'
import { BaseCommand } from '../cli/base.js'
import { examples } from '../cli/examples.js'

export default class Version extends BaseCommand {
  static override summary = 'Show the version, Node’s, and the manager release reproduced'

  static override description =
    `The CLI's version, the platform and Node version it runs on, and the ongrid manager release whose behaviour it reproduces (--version prints the same line).

Exit: 0.`

  static override examples = examples(
    ['The version line', '<%= config.bin %> version'],
    ['As a JSON document', '<%= config.bin %> version --json'],
  )

  async run(): Promise<void> {
    await this.runAction(versionAction, await this.parse(Version))
  }
}
