/**
 * CodeLens: "Run" and "Test" on a skill.json, "Run" and "Test" on each case of a case file. The
 * server runs them as the CLI's own `run` and `test` (the same executable, another process) and
 * reports the outcome with window/showMessage, the output in its log.
 */
import { spawn } from 'node:child_process'
import { existsSync, lstatSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { CodeLens } from 'vscode-languageserver/node.js'
import type { TextDocument } from 'vscode-languageserver-textdocument'
import { fromText, toText } from '../core/go/gostring.js'
import { type JNode, lastMember, parseTree } from '../core/json-tree.js'
import { ByteText } from './positions.js'

export const RUN_COMMAND = 'ongrid-skill.run'
export const TEST_COMMAND = 'ongrid-skill.test'

/** The most output kept of a run for the log. */
const MAX_OUTPUT = 1024 * 1024

const regexQuote = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The pack dir of a skill.json or of a case file (tests/NAME.json), or null. */
export function packOf(file: string): string | null {
  if (basename(file) === 'skill.json') return dirname(file)
  if (basename(dirname(file)) === 'tests' && file.endsWith('.json')) return dirname(dirname(file))
  return null
}

export function lenses(doc: TextDocument, file: string): CodeLens[] {
  const pack = packOf(file)
  if (pack === null) return []
  const top = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }
  if (basename(file) === 'skill.json') {
    const args = join(pack, 'examples/args.json')
    return [
      {
        range: top,
        command: {
          title: existsSync(args) ? 'Run (examples/args.json)' : 'Run',
          command: RUN_COMMAND,
          arguments: existsSync(args) ? [pack, { argsFile: args }] : [pack, {}],
        },
      },
      { range: top, command: { title: 'Test', command: TEST_COMMAND, arguments: [pack] } },
    ]
  }
  // A case file: one pair per case, when the text is valid JSON (else none until it is).
  const text = doc.getText()
  let root: JNode
  try {
    root = parseTree(fromText(text))
  } catch {
    return []
  }
  if (root.kind !== 'array') return []
  const bytes = new ByteText(Buffer.from(text, 'utf8'))
  const out: CodeLens[] = []
  for (const item of root.items) {
    if (item.kind !== 'object') continue
    const name = lastMember(item, fromText('name'))?.value
    if (name?.kind !== 'string') continue
    const at = bytes.positionAt(item.start)
    const range = { start: at, end: at }
    const caseName = toText(name.value)
    const args = lastMember(item, fromText('args'))?.value
    if (args !== undefined) {
      const json = bytes.bytes.subarray(args.start, args.end).toString('utf8')
      out.push({ range, command: { title: 'Run', command: RUN_COMMAND, arguments: [pack, { args: json }] } })
    }
    out.push({
      range,
      command: {
        title: `Test ${caseName}`,
        command: TEST_COMMAND,
        arguments: [pack, `^${regexQuote(caseName)}$`],
      },
    })
  }
  return out
}

export interface Outcome {
  code: number | null
  output: string
}

/** Runs the CLI (this process's executable and script) with `argv`; output bounded. */
export function runCli(argv: readonly string[], cwd: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [process.argv[1], ...argv], {
      cwd,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    const take = (b: Buffer) => {
      if (output.length < MAX_OUTPUT) output += b.toString('utf8')
    }
    child.stdout.on('data', take)
    child.stderr.on('data', take)
    child.on('error', (e) => resolve({ code: null, output: e.message }))
    child.on('close', (code) => resolve({ code, output }))
  })
}

/** The argv of a lens's command, or null when its arguments are not a pack's. */
export function commandArgv(command: string, args: readonly unknown[]): string[] | null {
  const [pack, extra] = args
  if (typeof pack !== 'string' || !lstatSync(join(pack, 'skill.json'), { throwIfNoEntry: false })) return null
  if (command === TEST_COMMAND)
    return typeof extra === 'string' ? ['test', pack, '--filter', extra] : ['test', pack]
  if (command !== RUN_COMMAND) return null
  const o = (extra ?? {}) as { args?: unknown; argsFile?: unknown }
  if (typeof o.args === 'string') return ['run', pack, '--args', o.args]
  if (typeof o.argsFile === 'string') return ['run', pack, '--args-file', o.argsFile]
  return ['run', pack]
}
