import { Args } from '@oclif/core'
import { remoteDiffAction } from '../../cli/actions/remote.js'
import { BaseCommand } from '../../cli/base.js'
import { examples } from '../../cli/examples.js'
import { REMOTE_EXIT_TEXT, remoteFlags } from '../../cli/remote-flags.js'

export default class RemoteDiff extends BaseCommand {
  static override summary = 'Local packs against what the manager has deployed'

  static override description =
    `Compares local packs with the manager: subprocess packs as load-dirs registers them from each allow-list DIR, with the builtin keys of the release the manager runs (GET /api/v1/version) (key, description, class, category, scope), and marketplace pack dirs by pack id (manifest sha256, version, display name, skill names). Says what is missing here, missing there, changed, and what cannot be compared: the API exposes no schema, entry, version or hash of subprocess packs, and only the manifest's sha256 of marketplace packs. Without DIR, $ONGRID_SKILLS_EXTERNAL_DIRS.

Exit 1 on any drift (for CI).

${REMOTE_EXIT_TEXT}`

  static override examples = examples([
    'The repository against production, in CI',
    '<%= config.bin %> <%= command.id %> skills/ packs/tf --manager https://ongrid.example.com --ca ongrid-ca.pem',
  ])

  static override strict = false

  static override args = {
    dir: Args.string({
      ignoreStdin: true,
      description: 'an allow-list dir (its skill.json packs) or a marketplace pack dir; repeatable',
    }),
  }

  static override flags = {
    ...remoteFlags,
  }

  async run(): Promise<void> {
    await this.runAction(remoteDiffAction, await this.parse(RemoteDiff))
  }
}
