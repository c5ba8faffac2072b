import { defineSpec, flag } from '../spec.js'

export const marketplaceSignSpec = defineSpec({
  id: 'marketplace:sign',
  summary: 'Write signature.json that the manager verifies',
  description: `Hashes the pack as the manager does (every regular *.md and *.json file, sorted by path bytes, path NUL content NUL; signature.json excluded) and signs that stream with ECDSA/SHA-256 (ASN.1 DER), then writes signature.json ({"sig","pub_key"}, base64, and each signed file's SHA-256 under "files_sha256", which the manager ignores and \`verify\` uses to name what changed) at the pack root and verifies it back. Files the signature does not cover (scripts, binaries, YAML) are listed: they can change without breaking it.

Sign the exact tree you will upload: the folder that becomes the archive's single top-level dir.`,
  examples: [['Sign a pack', '<%= config.bin %> <%= command.id %> my-pack --key ongrid-pack-key.pem']],
  args: {
    path: { description: 'pack dir', default: '.' },
  },
  flags: {
    key: flag.string({ description: 'private key PEM (from `marketplace keygen`)', required: true }),
  },
  exits: [
    { code: 0, kind: 'ok', help: 'ok' },
    { code: 2, kind: 'usage', help: 'usage or tool error' },
  ],
  schema: 'marketplace-sign.schema.json',
})
