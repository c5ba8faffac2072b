import { Args, Flags } from '@oclif/core'
import { marketplaceSignAction } from '../../cli/actions/marketplace.js'
import { BaseCommand } from '../../cli/base.js'
import { examples } from '../../cli/examples.js'

export default class MarketplaceSign extends BaseCommand {
  static override summary = 'Write signature.json that the manager verifies'

  static override description =
    `Hashes the pack as the manager does (every regular *.md and *.json file, sorted by path bytes, path NUL content NUL; signature.json excluded) and signs that stream with ECDSA/SHA-256 (ASN.1 DER), then writes signature.json ({"sig","pub_key"}, base64, and each signed file's SHA-256 under "files_sha256", which the manager ignores and \`verify\` uses to name what changed) at the pack root and verifies it back. Files the signature does not cover (scripts, binaries, YAML) are listed: they can change without breaking it.

Sign the exact tree you will upload: the folder that becomes the archive's single top-level dir.`

  static override examples = examples([
    'Sign a pack',
    '<%= config.bin %> <%= command.id %> my-pack --key ongrid-pack-key.pem',
  ])

  static override args = {
    path: Args.string({ ignoreStdin: true, description: 'pack dir', default: '.' }),
  }

  static override flags = {
    key: Flags.string({ description: 'private key PEM (from `marketplace keygen`)', required: true }),
  }

  async run(): Promise<void> {
    await this.runAction(marketplaceSignAction, await this.parse(MarketplaceSign))
  }
}
