import { type CompletionCommand, completion, completionJson, type Shell } from '../cli/actions/completion.js'
import { commandFrom } from '../cli/command-from.js'
import { printJson } from '../cli/errors.js'
import { completionSpec } from '../cli/specs/completion.js'

/** oclif's parse reads a class's own statics: those of the spec's class. */
const Spec = commandFrom(completionSpec)

export default class Completion extends Spec {
  override async run(): Promise<void> {
    const { args } = await this.parse(Spec)
    const commands: CompletionCommand[] = this.config.commands
      .filter((c) => !c.hidden)
      .map((c) => ({
        words: c.id.split(':'),
        summary: c.summary ?? c.description?.split('\n')[0] ?? '',
        flags: Object.values(c.flags)
          .filter((f) => !f.hidden)
          .map((f) => ({
            name: f.name,
            char: f.char,
            description: f.summary ?? f.description ?? '',
            takesValue: f.type === 'option',
            options: f.type === 'option' ? f.options : undefined,
          })),
      }))
      .sort((a, b) => a.words.join(' ').localeCompare(b.words.join(' ')))
    const script = completion(args.shell as Shell, this.config.bin, commands)
    if (this.jsonEnabled()) printJson(completionJson(args.shell as Shell, script))
    else process.stdout.write(script)
  }
}
