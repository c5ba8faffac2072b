/**
 * Exit codes shared by every command (ARCHITECTURE.md, Exit codes). A command's own codes
 * (`run`'s 3-5, …) are beside its action, in cli/actions/.
 */
export const EXIT = {
  ok: 0,
  findings: 1,
  usage: 2,
  /** A bug in ongrid-skill itself (sysexits EX_SOFTWARE). */
  internal: 70,
} as const

/**
 * The one base of every error the user can act on, wherever it is thrown (core or cli): its
 * message is printed as one line (`ongrid-skill: …`) and the process exits with `exitCode`
 * (a usage error unless said otherwise). `hint`, when given, is one more line that says what
 * to do (`did you mean "lint"?`). Anything else that reaches the top is a bug: exit 70.
 */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
    readonly hint?: string,
  ) {
    super(message)
  }
}

/** A text up to its first line break (`\n` or `\r\n`): the one line a failure is said in. */
export function firstLine(s: string): string {
  const i = s.search(/\r?\n/)
  return i >= 0 ? s.slice(0, i) : s
}

/** An error's message (anything thrown), cut to its first line. */
export function errorLine(e: unknown): string {
  return firstLine(e instanceof Error ? e.message : String(e))
}
