import { Flags } from '@oclif/core'
import { lspAction } from '../cli/actions/lsp.js'
import { BaseCommand } from '../cli/base.js'
import { examples } from '../cli/examples.js'

export default class Lsp extends BaseCommand {
  static override summary = 'Serve lint findings to editors over the Language Server Protocol'

  static override description =
    `Speaks the Language Server Protocol on stdin/stdout for skill.json, SKILL.md, tests/*.json case files and .ongrid-skill.yaml (.yml). An editor starts it; it is not run by hand.

Diagnostics are lint's findings on the unsaved text, after a short pause in typing: the manager's verdict and every lint rule, the rule id as the code with a link to its docs, severities from the nearest .ongrid-skill.yaml above each file, as lint reads them. Each workspace folder is checked as \`lint FOLDER\` checks it (a file outside every folder: as its pack dir), so duplicate names across packs and the assumed allow-list root are those lint reports; they are checked again when files in the folder change on disk.

The server exits when its input closes, on the protocol's exit notification, or when the client's process is gone: 0 after a shutdown request, 1 otherwise.`

  static override examples = examples([
    'Neovim 0.8+: start it for skill files',
    `nvim --cmd "au FileType json,markdown,yaml lua vim.lsp.start({name='ongrid-skill', cmd={'<%= config.bin %>','<%= command.id %>','--stdio'}, root_dir=vim.fn.getcwd()})"`,
  ])

  static override enableJsonFlag = false

  static override flags = {
    stdio: Flags.boolean({ description: 'talk over stdin/stdout (the default and only transport)' }),
  }

  async run(): Promise<void> {
    await this.runAction(lspAction, await this.parse(Lsp))
  }
}
