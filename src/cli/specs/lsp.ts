import { defineSpec, flag } from '../spec.js'

export const lspSpec = defineSpec({
  id: 'lsp',
  summary: 'Serve lint findings to editors over the Language Server Protocol',
  description: `Speaks the Language Server Protocol on stdin/stdout for skill.json, SKILL.md, tests/*.json case files and .ongrid-skill.yaml (.yml). An editor starts it; it is not run by hand.

Diagnostics are lint's findings on the unsaved text, after a short pause in typing: the manager's verdict and every lint rule, the rule id as the code with a link to its docs, severities from the nearest .ongrid-skill.yaml above each file, as lint reads them. Each workspace folder is checked as \`lint FOLDER\` checks it (a file outside every folder: as its pack dir), so duplicate names across packs and the assumed allow-list root are those lint reports; they are checked again when files in the folder change on disk.

The server exits when its input closes, on the protocol's exit notification, or when the client's process is gone.`,
  examples: [
    [
      'Neovim 0.8+: start it for skill files',
      `nvim --cmd "au FileType json,markdown,yaml lua vim.lsp.start({name='ongrid-skill', cmd={'<%= config.bin %>','<%= command.id %>','--stdio'}, root_dir=vim.fn.getcwd()})"`,
    ],
  ],
  json: false,
  flags: {
    stdio: flag.boolean({ description: 'talk over stdin/stdout (the default and only transport)' }),
  },
  exits: [
    { code: 0, kind: 'ok', help: 'after a shutdown request' },
    { code: 1, kind: 'failed', help: 'otherwise' },
  ],
  schema: null,
})
