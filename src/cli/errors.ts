import { EXIT, UserError } from '../core/errors.js'
import { stringify } from '../core/json-text.js'

export { EXIT, UserError } from '../core/errors.js'

/** Ends a command with this exit code; whatever needed saying has been printed already. */
export class ExitWith extends UserError {
  constructor(exitCode: number) {
    super(`exit ${exitCode}`, exitCode)
  }
}

/**
 * The --json document of a failure: `ok: false` and the error with its exit code, the same
 * code the process exits with. `extra` adds the command's own fields (an `audit` object, …).
 */
export function failureDocument(message: string, code: number, extra: Record<string, unknown> = {}) {
  return { ok: false, error: { message, exit_code: code }, ...extra }
}

/**
 * Prints any failure as one line on stderr (`ongrid-skill: …`) and returns its exit code: the
 * one place an error becomes an exit code — a UserError's own (core's errors are UserErrors
 * too), oclif's parse errors' (2), 70 for anything else (a bug: no stack
 * trace unless DEBUG is set). With `json` (the command was given --json) the failure is also
 * one JSON document on stdout (failureDocument, on one line), so every outcome of a --json run
 * is one.
 */
export function reportError(err: Error & { oclif?: { exit?: number } }, json = false): number {
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
  // oclif's parser messages span lines ("Unexpected argument: x\nSee more help with --help").
  message = message
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^See more help with/.test(l))
    .join('; ')
  process.stderr.write(`ongrid-skill: ${message}\n${hintLine(err)}`)
  // One line, so that it is also one record for commands that print JSON lines (audit tail).
  if (json) {
    try {
      process.stdout.write(`${JSON.stringify(failureDocument(message, code))}\n`)
    } catch {
      // stdout itself failed (that may be the error being reported): the stderr line stands.
    }
  }
  return code
}

/** The hint under the error line, one line (`hint: …`), or nothing. */
function hintLine(err: Error): string {
  const hint = err instanceof UserError ? err.hint : undefined
  return hint ? `hint: ${hint.replace(/\s*\n\s*/g, ' ')}\n` : ''
}

/**
 * Plain JSON on stdout (oclif's colorizer is slow and overflows the stack on multi-megabyte
 * strings); values of any depth (core/json-text.ts).
 */
export function printJson(json: unknown): void {
  process.stdout.write(`${stringify(json, 2)}\n`)
}

/** What a command's action receives, from oclif's parser or from the fast path (src/cli/fast.ts). */
export interface ActionInput {
  args: Record<string, string | undefined>
  argv: string[]
  /** Flags as given; a flag that was not given may be undefined: actions apply their own defaults. */
  flags: Record<string, unknown>
}

/** A command's work, independent of oclif: returns the exit code. */
export type Action = (input: ActionInput) => Promise<number>
