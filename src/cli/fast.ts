import { readFileSync } from 'node:fs'
import { commandName } from '../ui/envelope.js'
import { type Action, type ActionInput, EXIT, reportError, UserError } from './errors.js'
import { stoppedCode } from './signals.js'
import { FAST_ACTIONS } from './specs/index.js'

/**
 * The fast path. Loading oclif costs more than starting Node itself, which would eat the
 * cold-start budgets of the commands people run in loops (validate, run, load-dirs). So
 * bin/run.js first offers the argv here: when it is a plain invocation of a command that
 * is listed in cli/specs/index.ts, it is parsed with the flag definitions from the shipped oclif manifest and
 * the action runs without oclif. Anything else — help, unknown or malformed flags, missing
 * arguments, exclusive flags together — returns false and oclif handles it, so every error
 * message and all help output stay oclif's. What it accepts, it parses to the input oclif would
 * give the action (test/cli/fast-differential.test.ts compares the two on generated argv).
 */

/** A flag as oclif.manifest.json keeps it (what the fast path reads). */
export interface ManifestFlag {
  name: string
  type: 'boolean' | 'option'
  char?: string
  multiple?: boolean
  allowNo?: boolean
  options?: string[]
  default?: unknown
  exclusive?: string[]
  required?: boolean
}

interface ManifestCommand {
  id: string
  strict?: boolean
  args: Record<string, { name: string; required?: boolean; default?: string }>
  flags: Record<string, ManifestFlag>
}

export async function tryFast(argv: string[], manifestPath: URL): Promise<boolean> {
  // Topics are separated by a space on the command line (`audit tail`), by ':' in oclif's ids.
  // A topic is the first word of the ids with a ':' (cli/specs/index.ts).
  const isTopic = argv[0] !== undefined && Object.keys(FAST_ACTIONS).some((c) => c.startsWith(`${argv[0]}:`))
  const topic = isTopic && argv[1] !== undefined && !argv[1].startsWith('-')
  const id = topic ? `${argv[0]}:${argv[1]}` : argv[0]
  const action = id !== undefined && Object.hasOwn(FAST_ACTIONS, id) ? FAST_ACTIONS[id] : undefined
  if (action === undefined) return false
  let manifest: { commands: Record<string, ManifestCommand> }
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
  } catch {
    return false
  }
  const cmd = manifest.commands[id]
  if (!cmd) return false
  const input = parse(cmd, argv.slice(topic ? 2 : 1))
  if (input === null) return false
  let code: number
  try {
    code = await ((await action()) as Action)(input)
  } catch (e) {
    code = reportError(e as Error, jsonWanted(input.flags) && { command: commandName(id) })
  }
  // Stopped by a signal: 128 + its number, whatever the command made of being stopped.
  process.exitCode = stoppedCode() ?? code
  return true
}

/** Whether a command's output is a --json document (src/ui/envelope.ts): --json, or --format json. */
export function jsonWanted(flags: Record<string, unknown>): boolean {
  return flags.json === true || flags.format === 'json'
}

/** Parses argv as oclif would for the simple cases; null for anything it does not handle. */
export function parse(cmd: ManifestCommand, argv: string[]): ActionInput | null {
  const flags: Record<string, unknown> = {}
  const positional: string[] = []
  const byChar = new Map(Object.values(cmd.flags).flatMap((f) => (f.char ? [[f.char, f] as const] : [])))
  // oclif refuses a value that names one of the command's flags (`--root --quiet`: "expects a value").
  const namesFlag = (v: string): boolean => {
    if (v.startsWith('--')) {
      const negated = v.startsWith('--no-') ? cmd.flags[v.slice(5)] : undefined
      return v.slice(2) in cmd.flags || (negated?.type === 'boolean' && negated.allowNo === true)
    }
    return v[0] === '-' && byChar.has(v[1])
  }
  for (let i = 0; i < argv.length; i++) {
    const tok = argv[i]
    if (tok === '--') {
      positional.push(...argv.slice(i + 1))
      break
    }
    if (tok === '--help' || tok === '-h') return null
    let flag: ManifestFlag | undefined
    let value: string | undefined
    if (tok.startsWith('--')) {
      const eq = tok.indexOf('=')
      const name = eq < 0 ? tok.slice(2) : tok.slice(2, eq)
      if (eq >= 0) value = tok.slice(eq + 1)
      flag = cmd.flags[name]
      if (!flag && name.startsWith('no-')) {
        const negated = cmd.flags[name.slice(3)]
        if (negated?.type !== 'boolean' || !negated.allowNo || value !== undefined) return null
        flags[negated.name] = false
        continue
      }
    } else if (tok.length === 2 && tok[0] === '-' && tok[1] !== '-') {
      flag = byChar.get(tok[1])
      if (!flag) return null
    } else if (tok.startsWith('-') && tok !== '-') {
      return null // bundled short flags and the like: leave them to oclif
    } else {
      positional.push(tok)
      continue
    }
    if (!flag) return null
    if (flag.type === 'boolean') {
      if (value !== undefined) return null
      flags[flag.name] = true
      continue
    }
    if (value === undefined) {
      if (i + 1 >= argv.length) return null
      value = argv[++i]
    }
    if (namesFlag(value)) return null
    if (flag.options && !flag.options.includes(value)) return null
    if (flag.multiple) flags[flag.name] = [...((flags[flag.name] as string[] | undefined) ?? []), value]
    else if (flag.name in flags) return null
    else flags[flag.name] = value
  }
  for (const name of Object.keys(flags)) {
    if (cmd.flags[name]?.exclusive?.some((other) => other in flags)) return null
  }
  for (const f of Object.values(cmd.flags)) {
    if (!(f.name in flags) && f.required) return null
    if (!(f.name in flags) && f.default !== undefined) flags[f.name] = f.default
  }
  const argDefs = Object.values(cmd.args)
  if (argDefs.some((a, k) => a.required && positional[k] === undefined)) return null
  if (cmd.strict !== false && positional.length > argDefs.length) return null
  const args: Record<string, string | undefined> = {}
  const defaulted: string[] = []
  argDefs.forEach((a, k) => {
    args[a.name] = positional[k] ?? (a.default || undefined)
    // oclif lists an argument's default in argv too.
    if (positional[k] === undefined && a.default) defaulted.push(a.default)
  })
  return { args, argv: [...positional, ...defaulted], flags }
}

/**
 * A failure that oclif lets through to the launcher (an unknown command, from the
 * command_not_found hook): printed in the house style; returns the exit code. oclif's ExitError
 * only carries the code of a command that has said what it had to.
 */
export function reportFailure(
  e: Error & { oclif?: { exit?: number }; code?: string },
  argv: string[] = [],
): number {
  // An unknown command given --json (before any `--`) still answers with one document.
  const end = argv.indexOf('--')
  const json = argv.slice(0, end < 0 ? argv.length : end).includes('--json') && { command: null }
  if (e?.code === 'EEXIT') return e.oclif?.exit ?? 0
  // Thrown by a module of dist/ (a hook), whose UserError is not the bundle's class.
  const copy = ourClassOfAnotherCopy(e)
  if (copy !== null) {
    const u = e as Error & { exitCode?: unknown; hint?: string }
    const code = typeof u.exitCode === 'number' ? u.exitCode : EXIT.usage
    return copy === 'ExitWith' ? code : reportError(new UserError(e.message, code, u.hint), json)
  }
  return reportError(e, json)
}

/** Which of our error bases `e` is an instance of, when its class comes from another copy of the code. */
function ourClassOfAnotherCopy(e: unknown): 'ExitWith' | 'UserError' | null {
  if (e instanceof UserError || e === null || typeof e !== 'object') return null
  for (let p = Object.getPrototypeOf(e); p; p = Object.getPrototypeOf(p)) {
    const name = p.constructor?.name
    if (name === 'ExitWith' || name === 'UserError') return name
  }
  return null
}
