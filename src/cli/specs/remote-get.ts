import { defineSpec } from '../spec.js'
import { remoteExits, remoteFlags } from './remote-shared.js'

export const remoteGetSpec = defineSpec({
  id: 'remote:get',
  summary: 'One deployed skill: class, scope, params',
  description: `Shows GET /api/v1/skills/KEY. SKILL.md skills are listed by ls but the manager answers 404 for them here: this says so.`,
  examples: [['A builtin', '<%= config.bin %> <%= command.id %> host_probe_tcp']],
  args: {
    key: { description: 'the skill key', required: true },
  },
  flags: {
    ...remoteFlags,
  },
  exits: remoteExits(),
  schema: 'remote-get.schema.json',
})
