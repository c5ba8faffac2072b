// Starts `ongrid-skill lsp --stdio` for skill.json, SKILL.md, tests/*.json case files and
// .ongrid-skill.yaml/.yml. The server does the work; this only tells VS Code how to reach it.
const vscode = require('vscode')
const { LanguageClient } = require('vscode-languageclient/node')

/** @type {LanguageClient | undefined} */
let client

/** The documents the server checks. */
const DOCUMENTS = [
  { scheme: 'file', pattern: '**/skill.json' },
  { scheme: 'file', pattern: '**/SKILL.md' },
  { scheme: 'file', pattern: '**/tests/*.json' },
  { scheme: 'file', pattern: '**/.ongrid-skill.{yaml,yml}' },
]

async function activate(context) {
  const settings = vscode.workspace.getConfiguration('ongrid-skill')
  const command = settings.get('path') || 'ongrid-skill'
  // The manager release answered for (the server's default: ONGRID_MANAGER_VERSION, else the newest).
  const managerVersion = settings.get('managerVersion') || undefined
  client = new LanguageClient(
    'ongrid-skill',
    'ongrid-skill',
    { command, args: ['lsp', '--stdio'] },
    { documentSelector: DOCUMENTS, initializationOptions: managerVersion ? { managerVersion } : {} },
  )
  context.subscriptions.push(client)
  await client.start()
}

async function deactivate() {
  if (client) await client.stop()
}

module.exports = { activate, deactivate }
