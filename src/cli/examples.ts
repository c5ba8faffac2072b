import type { Command } from '@oclif/core'

/**
 * A command's `--help` examples, each a [what it does, the command line] pair (oclif expands
 * `<%= config.bin %>` and `<%= command.id %>` in the line).
 */
export function examples(...pairs: (readonly [description: string, command: string])[]): Command.Example[] {
  return pairs.map(([description, command]) => ({ description, command }))
}
