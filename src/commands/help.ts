import { Args, loadHelpClass } from '@oclif/core'
import { BaseCommand } from '../cli/base.js'
import { printJson } from '../cli/errors.js'
import { examples } from '../cli/examples.js'
import { commandHelpJson, commandListJson } from '../cli/help-json.js'
import { unknownCommand } from '../cli/suggest.js'

export default class Help extends BaseCommand {
  static override summary = 'Show help for a command'

  static override description = 'The same text as `COMMAND --help`; without a command, the list of commands.'

  static override examples = examples(
    ['The commands', '<%= config.bin %> help'],
    ['One command', '<%= config.bin %> help lint'],
    ['A command of a topic', '<%= config.bin %> help audit tail'],
  )

  static override strict = false
  static override args = {
    command: Args.string({
      ignoreStdin: true,
      description: 'the command (words of a topic command separated by spaces)',
    }),
  }

  async run(): Promise<void> {
    const { argv } = await this.parse(Help)
    const words = argv as string[]
    const id = words.join(':')
    if (words.length > 0 && !this.config.findCommand(id) && !this.config.findTopic(id)) {
      throw unknownCommand(
        words,
        this.config.commandIDs,
        this.config.topics.map((t) => t.name),
        this.config.bin,
      )
    }
    if (this.jsonEnabled()) {
      // The command's definition as the manifest has it (flags, args, examples); the list without one.
      const cmd = words.length > 0 ? this.config.findCommand(id) : undefined
      if (cmd) return printJson(commandHelpJson(cmd))
      const ids = this.config.commands.filter(
        (c) => !c.hidden && (words.length === 0 || c.id.startsWith(`${id}:`)),
      )
      return printJson(commandListJson(ids))
    }
    const HelpClass = await loadHelpClass(this.config)
    const help = new HelpClass(this.config, this.config.pjson.oclif.helpOptions)
    // oclif's showHelp skips the word `help` in its argv: `help help` would be the root's.
    const self = words.length === 1 && words[0] === 'help' ? this.config.findCommand('help') : undefined
    if (self) return help.showCommandHelp(self, [])
    await help.showHelp(words)
  }
}
