import { defineSpec } from '../spec.js'
import { remoteExits, remoteFlags } from './remote-shared.js'

export const remoteDiffSpec = defineSpec({
  id: 'remote:diff',
  summary: 'Local packs against what the manager has deployed',
  description: `Compares local packs with the manager: subprocess packs as load-dirs registers them from each allow-list DIR, with the builtin keys of the release the manager runs (GET /api/v1/version) (key, description, class, category, scope), and marketplace pack dirs by pack id (manifest sha256, version, display name, skill names). Says what is missing here, missing there, changed, and what cannot be compared: the API exposes no schema, entry, version or hash of subprocess packs, and only the manifest's sha256 of marketplace packs. Without DIR, $ONGRID_SKILLS_EXTERNAL_DIRS.

Exit 1 on any drift (for CI).`,
  examples: [
    [
      'The repository against production, in CI',
      '<%= config.bin %> <%= command.id %> skills/ packs/tf --manager https://ongrid.example.com --ca ongrid-ca.pem',
    ],
  ],
  strict: false,
  args: {
    dir: { description: 'an allow-list dir (its skill.json packs) or a marketplace pack dir; repeatable' },
  },
  flags: {
    ...remoteFlags,
  },
  exits: remoteExits({ code: 1, kind: 'findings', help: 'drift' }),
  schema: 'remote-diff.schema.json',
})
