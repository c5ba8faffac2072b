import { Command, Errors } from '@oclif/core'
import { commandName } from '../ui/envelope.js'
import { type Action, type ActionInput, EXIT, printJson, reportError } from './errors.js'
import { fromParseError } from './parse-errors.js'
import { stoppedCode } from './signals.js'

/** What oclif's parser returns, as far as an action is concerned. */
interface Parsed<F extends object = object, A extends object = object> {
  args: A
  argv: unknown[]
  flags: F
  raw?: readonly { type: string; input: string }[]
}

/**
 * An action's input from oclif's parse, the same as the fast path's (src/cli/fast.ts) for the same
 * argv. oclif sorts its argv by where each value first appears on the command line, which moves a
 * repeated value (`/a /b /a` gives `/a /a /b`; `--x -- --x` puts the argument first): the arguments
 * are taken in the order given from its raw tokens, then the defaults it added after them.
 */
export function actionInput<F extends object, A extends object>(parsed: Parsed<F, A>): ActionInput<F, A> {
  const argv = parsed.argv as string[]
  const given = parsed.raw?.filter((t) => t.type === 'arg').map((t) => t.input) ?? argv
  const added = [...argv]
  for (const a of given) {
    const at = added.indexOf(a)
    if (at >= 0) added.splice(at, 1)
  }
  return { args: parsed.args, argv: [...given, ...added], flags: parsed.flags }
}

/**
 * Base for all commands: help, flags and the manifest come from oclif; the work is an
 * Action (no oclif inside) that the fast path in src/cli/fast.ts can also call directly.
 * Any failure becomes one line on stderr and a distinct exit code, never a stack trace.
 */
export abstract class BaseCommand extends Command {
  /** Every command takes --json (audit tail, whose --json is JSON lines, and lsp say false). */
  static override enableJsonFlag = true

  override logJson(json: unknown): void {
    printJson(json)
  }

  /** Runs an action with oclif's parsed input (typed by the command's flags) and exits with its code. */
  protected async runAction<F extends object, A extends object>(
    action: Action<ActionInput<F, A>>,
    parsed: Parsed<F, A>,
  ): Promise<void> {
    // Stopped by a signal: 128 + its number, whatever the command made of being stopped.
    const returned = await action(actionInput(parsed))
    const code = stoppedCode() ?? returned
    if (code !== EXIT.ok) this.exit(code)
  }

  protected override async catch(err: Error & { oclif?: { exit?: number } }): Promise<unknown> {
    if (err instanceof Errors.ExitError) throw err
    const ctor = this.constructor as typeof BaseCommand
    const ours = fromParseError(err, { id: this.id, bin: this.config.bin, flags: ctor.flags ?? {} })
    const json = this.jsonEnabled() || this.jsonFlagGiven()
    const code = reportError(ours ?? err, json && { command: commandName(this.id ?? '') })
    return this.exit(stoppedCode() ?? code)
  }

  /**
   * --json before any `--` (also for commands that define their own json flag: audit tail), or
   * `--format json` where the format has a json (lint, validate, test, marketplace check|verify).
   */
  private jsonFlagGiven(): boolean {
    const end = this.argv.indexOf('--')
    const before = end < 0 ? this.argv : this.argv.slice(0, end)
    const format = (this.constructor as typeof BaseCommand).flags?.format
    const formatJson =
      format?.type === 'option' &&
      format.options?.includes('json') === true &&
      before.some((a, i) => a === '--format=json' || (a === '--format' && before[i + 1] === 'json'))
    return before.includes('--json') || formatJson
  }
}
