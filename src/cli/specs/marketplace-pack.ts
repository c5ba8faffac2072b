import { DEFAULT_EXCLUDES } from '../../core/marketplace/pack.js'
import { defineSpec, flag } from '../spec.js'

export const marketplacePackSpec = defineSpec({
  id: 'marketplace:pack',
  summary: 'Make an archive the upload endpoint accepts and extracts to the same tree',
  description: `Checks the pack as the manager would (refused packs, an unsafe id, a signature that no longer verifies are not packed), then writes a tar.gz or zip with one top-level folder named after the pack id, every file and dir of the pack sorted by path, fixed times and owners (the same pack gives the same bytes), and the modes the endpoint keeps (0755 when executable, else 0644). Symlinks, special files and names containing ".." are refused: the endpoint would drop or change them, and the installed tree would differ from the signed one. Version control data (.git, .hg, .svn, …) and .DS_Store are left out, and whatever --exclude matches; what was left out is listed. Leaving out a file the signature covers (*.md, *.json) is refused: the archive would not verify.

The archive is then extracted as the upload endpoint does and checked: same files, bytes and modes, install accepted, the same signature state. It is written next to its destination and renamed into place only then. Existing files are not overwritten without --force.`,
  examples: [
    ['Pack a signed pack as <id>-<version>.tar.gz', '<%= config.bin %> <%= command.id %> my-pack'],
    ['A zip, named', '<%= config.bin %> <%= command.id %> my-pack --format zip -o dist/my-pack.zip'],
    [
      'Leave out test data and editor backups too',
      "<%= config.bin %> <%= command.id %> my-pack --exclude 'testdata/' --exclude '*~'",
    ],
  ],
  args: {
    path: { description: 'pack dir', default: '.' },
  },
  flags: {
    output: flag.string({
      char: 'o',
      description: 'archive file, named with the format’s suffix (default <id>-<version>.<format> here)',
    }),
    format: flag.option({
      description: 'archive format',
      options: ['tar.gz', 'zip'] as const,
      default: 'tar.gz' as const,
    }),
    force: flag.boolean({ description: 'replace an existing archive file' }),
    exclude: flag.string({
      description:
        'leave out paths matching GLOB (repeatable; `*`, `?`, `**`; no `/`: a name at any depth; a trailing `/`: dirs only)',
      multiple: true,
      multipleNonGreedy: true,
    }),
    'default-excludes': flag.boolean({
      // No default: the fast path keeps none for booleans; not given is on.
      description: `leave out ${DEFAULT_EXCLUDES.join(', ')} (--no-default-excludes packs them)`,
      allowNo: true,
    }),
  },
  exits: [
    { code: 0, kind: 'ok', help: 'ok' },
    { code: 2, kind: 'usage', help: 'usage or tool error' },
  ],
  schema: 'marketplace-pack.schema.json',
})
