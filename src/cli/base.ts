import { Command, Errors } from '@oclif/core'

/** Exit codes shared by every command. */
export const EXIT = {
  ok: 0,
  findings: 1,
  usage: 2,
  /** A bug in ongrid-skill itself (sysexits EX_SOFTWARE). */
  internal: 70,
} as const

/** An error the user can act on: printed as one line, exits with `code`. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly code: number = EXIT.usage,
  ) {
    super(message)
  }
}

/**
 * Base for all commands: any failure becomes one line on stderr (`ongrid-skill: …`)
 * and a distinct exit code, never a stack trace.
 */
export abstract class BaseCommand extends Command {
  /** Plain JSON (oclif's colorizer is slow and overflows the stack on multi-megabyte strings). */
  override logJson(json: unknown): void {
    process.stdout.write(`${JSON.stringify(json, null, 2)}\n`)
  }

  protected override async catch(
    err: Error & { exitCode?: number; oclif?: { exit?: number } },
  ): Promise<unknown> {
    if (err instanceof Errors.ExitError) throw err
    let code: number = EXIT.usage
    let message = err.message
    if (err instanceof UserError) code = err.code
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
    process.stderr.write(`ongrid-skill: ${message}${code === EXIT.usage ? ' (see --help)' : ''}\n`)
    return this.exit(code)
  }
}
