import type { Command } from '@oclif/core'
import { commandName, envelope } from '../ui/envelope.js'
import { EXIT } from './errors.js'

/**
 * `help COMMAND --json` (schemas/output/help.schema.json): the command's definition as the
 * manifest has it, in snake_case — its words, summary, description, args, flags, examples.
 */
export function commandHelpJson(cmd: Command.Loadable) {
  return envelope('help', EXIT.ok, {
    id: commandName(cmd.id),
    summary: cmd.summary ?? null,
    description: cmd.description ?? null,
    args: Object.values(cmd.args).map((a) => ({
      name: a.name,
      description: a.description ?? null,
      required: a.required === true,
      default: typeof a.default === 'string' ? a.default : null,
    })),
    flags: Object.values(cmd.flags)
      .filter((f) => !f.hidden)
      .map((f) => ({
        name: f.name,
        char: f.char ?? null,
        description: f.summary ?? f.description ?? null,
        takes_value: f.type === 'option',
        options: f.type === 'option' ? (f.options ?? null) : null,
        default: f.type === 'option' && typeof f.default === 'string' ? f.default : null,
        multiple: f.type === 'option' && f.multiple === true,
        required: f.required === true,
        allow_no: f.type === 'boolean' && f.allowNo === true,
      })),
    examples: (cmd.examples ?? []).map((e) =>
      typeof e === 'string'
        ? { description: null, command: e }
        : { description: e.description, command: e.command },
    ),
  })
}

/** `help [TOPIC] --json`: the commands (of the topic), with their summaries. */
export function commandListJson(commands: readonly Command.Loadable[]) {
  return envelope('help', EXIT.ok, {
    commands: commands.map((c) => ({ id: commandName(c.id), summary: c.summary ?? null })),
  })
}
