/**
 * Every `--json` document the suite makes the CLI print is checked here against its schema
 * (schemas/output/<command>.schema.json, the command's words joined by `-`), through the helpers
 * that run the CLI (cli.ts): no test can forget it. Its envelope's `exit_code` must be the
 * process's own exit status, and its `command` the command that was run.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'

const SCHEMAS = fileURLToPath(new URL('../../../schemas/output', import.meta.url))
const BASE = 'https://github.com/ongridio/ongrid-skill/schemas/output/'

let ajv: Ajv2020 | null = null
function compiled(): Ajv2020 {
  if (ajv !== null) return ajv
  ajv = new Ajv2020({ strict: true, allErrors: true })
  for (const f of readdirSync(SCHEMAS).filter((f) => f.endsWith('.schema.json'))) {
    ajv.addSchema(JSON.parse(readFileSync(join(SCHEMAS, f), 'utf8')))
  }
  return ajv
}

/** The validator of a command's documents (null: an unknown command's, the bare failure). */
export function schemaFor(command: string | null, def?: string): ValidateFunction {
  const file = command === null ? 'envelope' : command.replaceAll(' ', '-')
  const id = `${BASE}${file}.schema.json${def === undefined ? '' : `#/$defs/${def}`}${command === null ? '#/$defs/failure' : ''}`
  const v = compiled().getSchema(id)
  if (v === undefined) throw new Error(`no schema ${id} (schemas/output/${file}.schema.json)`)
  return v
}

const TOPICS = new Set(['audit', 'marketplace'])
const FORMAT_COMMANDS = new Set(['validate', 'lint', 'test', 'marketplace check', 'marketplace verify'])

/**
 * The command ARGS run, when its output is a --json document: `--json` (or `--format json` for
 * the commands whose format has a json) before any `--`, and not help; else undefined.
 * `lint --show-tool --json` prints the manager's own bytes, not a document of ours.
 */
export function jsonCommand(args: readonly string[]): string | null | undefined {
  const end = args.indexOf('--')
  const before = end < 0 ? args : args.slice(0, end)
  if (before.includes('--help') || before.includes('-h')) return undefined
  const words = before.filter((a) => !a.startsWith('-'))
  const command = TOPICS.has(words[0] ?? '') && words[1] !== undefined ? `${words[0]} ${words[1]}` : words[0]
  const format = before.some(
    (a, i) => a === '--format=json' || (a === '--format' && before[i + 1] === 'json'),
  )
  const json = before.includes('--json') || (format && FORMAT_COMMANDS.has(command ?? ''))
  if (!json || command === undefined) return undefined
  if (command === 'lint' && before.includes('--show-tool')) return undefined
  return command
}

/**
 * Checks what a run of ARGS printed on stdout when it is a --json document; throws with what is
 * wrong. `audit tail` prints rows as JSON lines, then its document as the last line.
 */
export function checkJsonOutput(args: readonly string[], code: number | null, stdout: string): void {
  const command = jsonCommand(args)
  if (command === undefined || code === null) return
  // An internal error may be the failure to write the document itself (stdout broken).
  if (code === 70 && stdout === '') return
  const problem = (what: string) =>
    new Error(`--json output of \`${args.join(' ')}\` (exit ${code}): ${what}\n${stdout.slice(0, 2000)}`)
  let doc: { exit_code?: unknown; command?: unknown }
  try {
    if (command === 'audit tail') {
      const lines = stdout.split('\n')
      if (lines.pop() !== '') throw new Error('not whole lines')
      const last = lines.pop()
      if (last === undefined) throw new Error('no document')
      const row = schemaFor(command, 'row')
      for (const l of lines) {
        if (!row(JSON.parse(l)))
          throw problem(`a row does not match its schema: ${JSON.stringify(row.errors)}`)
      }
      doc = JSON.parse(last)
    } else doc = JSON.parse(stdout)
  } catch (e) {
    if ((e as Error).message.startsWith('--json output of')) throw e
    throw problem(`not one JSON document: ${(e as Error).message}`)
  }
  // An unknown command's document has command null; any other names the command run.
  const known = doc.command === null ? null : command
  const valid = schemaFor(known)
  if (!valid(doc)) throw problem(`does not match its schema: ${JSON.stringify(valid.errors, null, 1)}`)
  if (doc.exit_code !== code) throw problem(`exit_code ${doc.exit_code}, but the CLI exited ${code}`)
  if (doc.command !== null && doc.command !== command) throw problem(`command ${JSON.stringify(doc.command)}`)
}
