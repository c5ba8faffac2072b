// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell syntax, not JavaScript templates
import { Args } from '@oclif/core'
import {
  type CompletionCommand,
  completion,
  completionJson,
  SHELLS,
  type Shell,
} from '../cli/actions/completion.js'
import { BaseCommand } from '../cli/base.js'
import { printJson } from '../cli/errors.js'
import { examples } from '../cli/examples.js'

export default class Completion extends BaseCommand {
  static override summary = 'Print a shell completion script (bash or zsh)'

  static override description =
    `Commands, flags, the values of flags that take one of a list and the built-in templates complete; paths complete as files. The script is generated from the commands themselves and runs in the shell alone: completing never starts ongrid-skill.`

  static override examples = examples(
    ['bash: add to ~/.bashrc', 'eval "$(<%= config.bin %> completion bash)"'],
    [
      'zsh: a file in your $fpath (then restart zsh)',
      '<%= config.bin %> completion zsh > "${fpath[1]}/_<%= config.bin %>"',
    ],
    ['zsh: or in ~/.zshrc, after compinit', 'eval "$(<%= config.bin %> completion zsh)"'],
  )

  static override args = {
    shell: Args.string({ ignoreStdin: true, description: 'the shell', options: [...SHELLS], required: true }),
  }

  async run(): Promise<void> {
    const { args } = await this.parse(Completion)
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
