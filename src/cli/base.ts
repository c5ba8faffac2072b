import { Command, Errors } from '@oclif/core'
import { type Action, EXIT, printJson, reportError } from './errors.js'
import { fromParseError } from './parse-errors.js'

/**
 * Base for all commands: help, flags and the manifest come from oclif; the work is an
 * Action (no oclif inside) that the fast path in src/cli/fast.ts can also call directly.
 * Any failure becomes one line on stderr and a distinct exit code, never a stack trace.
 */
export abstract class BaseCommand extends Command {
  override logJson(json: unknown): void {
    printJson(json)
  }

  /** Runs an action with oclif's parsed input and exits with its code. */
  protected async runAction(
    action: Action,
    parsed: { args: object; argv: unknown[]; flags: object },
  ): Promise<void> {
    const code = await action({
      args: parsed.args as Record<string, string | undefined>,
      argv: parsed.argv as string[],
      flags: parsed.flags as Record<string, unknown>,
    })
    if (code !== EXIT.ok) this.exit(code)
  }

  protected override async catch(err: Error & { oclif?: { exit?: number } }): Promise<unknown> {
    if (err instanceof Errors.ExitError) throw err
    const ctor = this.constructor as typeof BaseCommand
    const ours = fromParseError(err, { id: this.id, bin: this.config.bin, flags: ctor.flags ?? {} })
    return this.exit(reportError(ours ?? err, this.jsonEnabled() || this.jsonFlagGiven()))
  }

  /** --json before any `--`: also for commands that define their own json flag (audit tail). */
  private jsonFlagGiven(): boolean {
    const end = this.argv.indexOf('--')
    const at = this.argv.indexOf('--json')
    return at >= 0 && (end < 0 || at < end)
  }
}
