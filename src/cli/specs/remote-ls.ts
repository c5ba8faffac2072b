import { defineSpec, flag } from '../spec.js'
import { remoteExits, remoteFlags } from './remote-shared.js'

export const remoteLsSpec = defineSpec({
  id: 'remote:ls',
  summary: 'The skills the manager has deployed',
  description: `Lists GET /api/v1/skills: builtins, subprocess packs (registered at the manager's boot), bridged chat tools and SKILL.md skills, with class, scope and category. A table on a terminal; JSON (--json) otherwise. --category is an exact, case-sensitive match, as the manager applies it.`,
  examples: [
    ['All skills', '<%= config.bin %> <%= command.id %>'],
    [
      'Subprocess packs only (their category defaults to external)',
      '<%= config.bin %> <%= command.id %> --category external --json',
    ],
  ],
  flags: {
    ...remoteFlags,
    category: flag.string({ description: 'only this category (exact match)' }),
  },
  exits: remoteExits(),
  schema: 'remote-ls.schema.json',
})
