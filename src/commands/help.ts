import { loadHelpClass } from '@oclif/core'
import { commandFrom } from '../cli/command-from.js'
import { printJson } from '../cli/errors.js'
import { commandHelpJson, commandListJson } from '../cli/help-json.js'
import { helpSpec } from '../cli/specs/help.js'
import { unknownCommand } from '../cli/suggest.js'

/** oclif's parse reads a class's own statics: those of the spec's class. */
const Spec = commandFrom(helpSpec)

export default class Help extends Spec {
  override async run(): Promise<void> {
    const { argv } = await this.parse(Spec)
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
