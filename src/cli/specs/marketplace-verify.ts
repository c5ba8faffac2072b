import { PINNED_PUBKEY_ENV } from '../flag-sources.js'
import { defineSpec, flag } from '../spec.js'
import { formatFlag, quietFlag } from './shared.js'

export const marketplaceVerifySpec = defineSpec({
  id: 'marketplace:verify',
  summary: "A pack's signature state and the manager's exact error text",
  description: `Verifies signature.json as the manager does after an install: \`verified\`, \`unsigned\` (no signature.json at the root) or \`failed\` with the manager's error (bad JSON, base64 or PEM as Go's decoders see them, a key that is not ECDSA, a pin mismatch, \`ecdsa signature does not verify\`). The signature covers only *.md and *.json files: the others are listed. After \`ecdsa signature does not verify\`, the signed files changed, added and removed since signing are named, from the digests \`marketplace sign\` records in signature.json (they never decide the verdict).

An archive is extracted as the upload endpoint does it first.`,
  examples: [
    ['Verify a pack', '<%= config.bin %> <%= command.id %> my-pack'],
    [
      'CI: the archive must be signed by the team key',
      '<%= config.bin %> <%= command.id %> dist/my-pack.tar.gz --pinned-key team.pub --require-signed',
    ],
  ],
  args: {
    path: { description: 'pack dir or archive', default: '.' },
  },
  flags: {
    format: formatFlag('output format (--json is --format json)'),
    quiet: quietFlag('report errors only'),
    'pinned-key': flag.string({
      description: `the pinned public key: a PEM file, or the PEM itself (as the manager takes it); default: $${PINNED_PUBKEY_ENV}`,
    }),
    'require-signed': flag.boolean({ description: 'an unsigned pack fails too' }),
  },
  exits: [
    { code: 0, kind: 'ok', help: 'verified (or unsigned without --require-signed)' },
    { code: 1, kind: 'findings', help: 'otherwise' },
    { code: 2, kind: 'usage', help: 'usage or tool error' },
  ],
  schema: 'marketplace-verify.schema.json',
})
