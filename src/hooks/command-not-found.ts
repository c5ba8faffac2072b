import type { Hook } from '@oclif/core'
import { unknownCommand } from '../cli/suggest.js'

/** An unknown command: one line of ours and the nearest command as the hint (bin/run.js prints it). */
const hook: Hook<'command_not_found'> = async ({ id, config }) => {
  throw unknownCommand(
    id.split(':'),
    config.commandIDs,
    config.topics.map((t) => t.name),
    config.bin,
  )
}

export default hook
