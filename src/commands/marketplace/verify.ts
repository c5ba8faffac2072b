import { Args, Flags } from '@oclif/core'
import { marketplaceVerifyAction } from '../../cli/actions/marketplace.js'
import { BaseCommand } from '../../cli/base.js'
import { formatFlag, quietFlag } from '../../cli/check-flags.js'
import { examples } from '../../cli/examples.js'
import { PINNED_PUBKEY_ENV } from '../../cli/flag-sources.js'

export default class MarketplaceVerify extends BaseCommand {
  static override summary = "A pack's signature state and the manager's exact error text"

  static override description =
    `Verifies signature.json as the manager does after an install: \`verified\`, \`unsigned\` (no signature.json at the root) or \`failed\` with the manager's error (bad JSON, base64 or PEM as Go's decoders see them, a key that is not ECDSA, a pin mismatch, \`ecdsa signature does not verify\`). The signature covers only *.md and *.json files: the others are listed. After \`ecdsa signature does not verify\`, the signed files changed, added and removed since signing are named, from the digests \`marketplace sign\` records in signature.json (they never decide the verdict).

An archive is extracted as the upload endpoint does it first.

Exit codes: 0 verified (or unsigned without --require-signed), 1 otherwise, 2 usage or tool error.`

  static override examples = examples(
    ['Verify a pack', '<%= config.bin %> <%= command.id %> my-pack'],
    [
      'CI: the archive must be signed by the team key',
      '<%= config.bin %> <%= command.id %> dist/my-pack.tar.gz --pinned-key team.pub --require-signed',
    ],
  )

  static override args = {
    path: Args.string({ ignoreStdin: true, description: 'pack dir or archive', default: '.' }),
  }

  static override flags = {
    format: formatFlag('output format (--json is --format json)'),
    quiet: quietFlag('report errors only'),
    'pinned-key': Flags.string({
      description: `the pinned public key: a PEM file, or the PEM itself (as the manager takes it); default: $${PINNED_PUBKEY_ENV}`,
    }),
    'require-signed': Flags.boolean({ description: 'an unsigned pack fails too' }),
  }

  async run(): Promise<void> {
    await this.runAction(marketplaceVerifyAction, await this.parse(MarketplaceVerify))
  }
}
