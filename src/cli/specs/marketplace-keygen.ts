import { defineSpec, flag } from '../spec.js'

export const marketplaceKeygenSpec = defineSpec({
  id: 'marketplace:keygen',
  summary: 'Make an ECDSA P-256 signing key for marketplace packs',
  description: `Writes a P-256 private key (PKCS#8 PEM, mode 0600) and its public key (PKIX PEM) beside it (FILE without .pem, plus .pub). Existing files are never overwritten. The public key is what a manager pins (ONGRID_MARKETPLACE_PINNED_PUBKEY).`,
  examples: [
    ['Make ongrid-pack-key.pem and ongrid-pack-key.pub', '<%= config.bin %> <%= command.id %>'],
    ['Choose where (team.pem and team.pub)', '<%= config.bin %> <%= command.id %> -o ~/.keys/team.pem'],
  ],
  flags: {
    output: flag.string({
      char: 'o',
      description:
        'private key file, FILE.pem (default ongrid-pack-key.pem); the public key goes beside it as FILE.pub',
    }),
    // The flag's name before -o/--output, as every command that writes a file names it.
    out: flag.string({ hidden: true }),
  },
  exits: [
    { code: 0, kind: 'ok', help: 'ok' },
    { code: 2, kind: 'usage', help: 'usage or tool error' },
  ],
  schema: 'marketplace-keygen.schema.json',
})
