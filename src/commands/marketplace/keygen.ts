import { Flags } from '@oclif/core'
import { marketplaceKeygenAction } from '../../cli/actions/marketplace.js'
import { BaseCommand } from '../../cli/base.js'
import { examples } from '../../cli/examples.js'

export default class MarketplaceKeygen extends BaseCommand {
  static override summary = 'Make an ECDSA P-256 signing key for marketplace packs'

  static override description =
    `Writes a P-256 private key (PKCS#8 PEM, mode 0600) and its public key (PKIX PEM) beside it (FILE without .pem, plus .pub). Existing files are never overwritten. The public key is what a manager pins (ONGRID_MARKETPLACE_PINNED_PUBKEY).`

  static override examples = examples(
    ['Make ongrid-pack-key.pem and ongrid-pack-key.pub', '<%= config.bin %> <%= command.id %>'],
    ['Choose where (team.pem and team.pub)', '<%= config.bin %> <%= command.id %> -o ~/.keys/team.pem'],
  )

  static override flags = {
    output: Flags.string({
      char: 'o',
      description:
        'private key file, FILE.pem (default ongrid-pack-key.pem); the public key goes beside it as FILE.pub',
    }),
    // The flag's name before -o/--output, as every command that writes a file names it.
    out: Flags.string({ hidden: true }),
  }

  async run(): Promise<void> {
    await this.runAction(marketplaceKeygenAction, await this.parse(MarketplaceKeygen))
  }
}
