import { defineSpec } from '../spec.js'

export const helpSpec = defineSpec({
  id: 'help',
  summary: 'Show help for a command',
  description: 'The same text as `COMMAND --help`; without a command, the list of commands.',
  examples: [
    ['The commands', '<%= config.bin %> help'],
    ['One command', '<%= config.bin %> help lint'],
    ['A command of a topic', '<%= config.bin %> help audit tail'],
  ],
  strict: false,
  args: {
    command: { description: 'the command (words of a topic command separated by spaces)' },
  },
  exits: [
    { code: 0, kind: 'ok', help: 'ok' },
    { code: 2, kind: 'usage', help: 'an unknown command' },
  ],
  schema: 'help.schema.json',
})
