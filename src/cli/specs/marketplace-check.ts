import { DEVMODE_ENV, PINNED_PUBKEY_ENV, REQUIRE_SIGNED_ENV } from '../flag-sources.js'
import { defineSpec, flag } from '../spec.js'
import { formatFlag, managerVersionFlag, quietFlag } from './shared.js'

export const marketplaceCheckSpec = defineSpec({
  id: 'marketplace:check',
  summary: "The manager's verdict on a marketplace pack dir or archive, offline",
  description: `What the manager's install would say about a marketplace pack (a Claude plugin, an openclaw plugin, or bare skills/<name>/SKILL.md): the layout, the pack id, version and manifest sha256, the skills, commands and agents it loads, every loader warning with its code, the signature state, and the install error text the manager would return (\`invalid argument: …\`, \`forbidden: …\`).

An archive (.zip, .tar.gz, .tgz, .tar) is extracted exactly as the upload endpoint does it (suffix decides the type, \`..\` names refused, symlinks dropped from tar and turned into files from zip, modes 0755/0644) and its single top-level folder descended into. Paths in the output point into the archive (ARCHIVE/…); the manager's own texts name its staging dir instead.

--dev-mode, --require-signed, --pinned-key and --source replay the trust gate of a manager configured that way (its defaults: dev mode on, no gate). Without the flags, the manager's own variables are read as it reads them (${DEVMODE_ENV}, ${REQUIRE_SIGNED_ENV}, ${PINNED_PUBKEY_ENV}), so the same environment gives the same verdict; --json says where each setting came from (trust.from). Findings marked "not the manager's verdict" are the manager's likely bugs (a pack id of "." deletes its whole skills root; a dangling symlink out of the pack installs) and limits of its database.`,
  examples: [
    ['Check a pack dir', '<%= config.bin %> <%= command.id %> my-pack'],
    [
      'Check the archive you will upload, as a manager that requires signed local packs',
      '<%= config.bin %> <%= command.id %> my-pack.tar.gz --dev-mode=false --require-signed local --pinned-key team.pub',
    ],
    [
      "With the manager's own settings",
      `${DEVMODE_ENV}=false ${REQUIRE_SIGNED_ENV}=local ${PINNED_PUBKEY_ENV}="$(cat team.pub)" <%= config.bin %> <%= command.id %> my-pack.tar.gz`,
    ],
    ['SARIF for code scanning', '<%= config.bin %> <%= command.id %> my-pack --format sarif > pack.sarif'],
  ],
  args: {
    path: { description: 'pack dir or archive (.zip, .tar.gz, .tgz, .tar)', default: '.' },
  },
  flags: {
    'manager-version': managerVersionFlag,
    format: formatFlag('output format (--json is --format json)'),
    quiet: quietFlag('report errors only'),
    'dev-mode': flag.string({
      description: `the manager’s ${DEVMODE_ENV}, read as it reads it: empty or "true" in any case is on, anything else (false, 0, no) off; default: $${DEVMODE_ENV}, else on`,
    }),
    'require-signed': flag.string({
      description: `a source that must be signed (repeatable); default: $${REQUIRE_SIGNED_ENV} split on "," as the manager splits it, else ongrid-official`,
      multiple: true,
      multipleNonGreedy: true,
    }),
    'pinned-key': flag.string({
      description: `the pinned public key: a PEM file, or the PEM itself (as the manager takes it); default: $${PINNED_PUBKEY_ENV}`,
    }),
    source: flag.string({
      description: 'the install’s source label (an upload is "local")',
      default: 'local',
    }),
  },
  exits: [
    { code: 0, kind: 'ok', help: 'the manager accepts it and nothing is an error' },
    { code: 1, kind: 'findings', help: 'refused or an error finding' },
    { code: 2, kind: 'usage', help: 'usage or tool error' },
  ],
  schema: 'marketplace-check.schema.json',
})
