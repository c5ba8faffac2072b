import { defineSpec } from '../spec.js'

export const versionSpec = defineSpec({
  id: 'version',
  summary: 'Show the version, Node’s, and the manager release reproduced',
  description: `The CLI's version, the platform and Node version it runs on, and the ongrid manager release whose behaviour it reproduces (--version prints the same line).`,
  examples: [
    ['The version line', '<%= config.bin %> version'],
    ['As a JSON document', '<%= config.bin %> version --json'],
  ],
  exits: [{ code: 0, kind: 'ok', help: 'ok' }],
  schema: 'version.schema.json',
})
