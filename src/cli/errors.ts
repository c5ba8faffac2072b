import { EXIT, UserError } from '../core/errors.js'
import { stringify } from '../core/json-text.js'
import { envelope, jsonError } from '../ui/envelope.js'
import { terminalLineText } from '../ui/terminal.js'
import { stoppedCode } from './signals.js'
import type { SpecInput } from './spec.js'

export { EXIT, UserError } from '../core/errors.js'

/** Ends a command with this exit code; whatever needed saying has been printed already. */
export class ExitWith extends UserError {
  constructor(exitCode: number) {
    super(`exit ${exitCode}`, exitCode)
  }
}

/**
 * The --json document of a failure (src/ui/envelope.ts): `ok: false`, `exit_code` (the code the
 * process exits with), the command, and `error` with the message, its kind, the hint when there
 * is one and `errorFields` (a kind's own: `issues`, `status`). `fields` adds the command's own.
 */
export function failureDocument(
  command: string | null,
  message: string,
  code: number,
  errorFields: Record<string, unknown> = {},
  fields: Record<string, unknown> = {},
) {
  return envelope(command, code, fields, jsonError(command, code, message, errorFields))
}

/** Whether a failure is also a --json document, and of which command (null: none recognised). */
export type JsonFor = false | { command: string | null }

/**
 * Prints any failure as one line on stderr (`ongrid-skill: …`) and returns its exit code: the
 * one place an error becomes an exit code — a UserError's own (core's errors are UserErrors
 * too), oclif's parse errors' (2), 70 for anything else (a bug: no stack
 * trace unless DEBUG is set). With `json` (the command was given --json) the failure is also
 * one JSON document on stdout (failureDocument, on one line), so every outcome of a --json run
 * is one.
 */
export function reportError(err: Error & { oclif?: { exit?: number } }, json: JsonFor = false): number {
  if (err instanceof ExitWith) return err.exitCode
  let code: number = EXIT.usage
  let message = err.message
  if (err instanceof UserError) code = err.exitCode
  else if (typeof err.oclif?.exit === 'number') code = err.oclif.exit
  else {
    code = EXIT.internal
    message = `internal error: ${message} (set DEBUG=* for details)`
    if (process.env.DEBUG) process.stderr.write(`${err.stack}\n`)
  }
  // Stopped by a signal: that is the exit, whatever failed after it (the callers apply it too).
  code = stoppedCode() ?? code
  // oclif's parser messages span lines ("Unexpected argument: x\nSee more help with --help").
  message = message
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^See more help with/.test(l))
    .join('; ')
  // On a terminal, a path or a name in it cannot send escape sequences there.
  const tty = process.stderr.isTTY === true
  const hint = hintLine(err)
  process.stderr.write(
    `ongrid-skill: ${terminalLineText(message, tty)}\n${hint === '' ? '' : `${terminalLineText(hint, tty)}\n`}`,
  )
  // One line, so that it is also one record for commands that print JSON lines (audit tail).
  if (json !== false) {
    try {
      const hint = err instanceof UserError && err.hint ? { hint: err.hint.replace(/\s*\n\s*/g, ' ') } : {}
      process.stdout.write(`${JSON.stringify(failureDocument(json.command, message, code, hint))}\n`)
    } catch {
      // stdout itself failed (that may be the error being reported): the stderr line stands.
    }
  }
  return code
}

/** The hint under the error line, one line (`hint: …`, no newline), or nothing. */
function hintLine(err: Error): string {
  const hint = err instanceof UserError ? err.hint : undefined
  return hint ? `hint: ${hint.replace(/\s*\n\s*/g, ' ')}` : ''
}

/**
 * Plain JSON on stdout (oclif's colorizer is slow and overflows the stack on multi-megabyte
 * strings); values of any depth (core/json-text.ts).
 */
export function printJson(json: unknown): void {
  process.stdout.write(`${stringify(json, 2)}\n`)
}

/** What a command's action receives, from oclif's parser or from the fast path (src/cli/fast.ts). */
export interface ActionInput<
  F extends object = Record<string, unknown>,
  A extends object = Record<string, string | undefined>,
> {
  args: A
  argv: string[]
  /** Flags as given, defaults applied; a flag that was not given (a boolean) is undefined. */
  flags: F
}

/** A command's work, independent of oclif: returns the exit code. */
export type Action<I extends ActionInput<object, object> = ActionInput> = (input: I) => Promise<number>

/**
 * The input of a command's action, inferred from its spec's flags and args (cli/spec.ts): the action
 * imports its spec as a type only, so the fast path, which runs actions without oclif, loads no help text.
 */
export type InputOf<S> = SpecInput<S>
