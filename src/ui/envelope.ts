/**
 * The envelope every `--json` document has, success or failure, of every command
 * (schemas/output/envelope.schema.json; README, "JSON output"):
 *
 * - `ok`: the command succeeded (its exit code is 0);
 * - `exit_code`: the CLI's own exit status, always — never a skill's or an entry's;
 * - `command`: the command as typed, words joined by a space (`lint`, `marketplace check`,
 *   `audit tail`); null only when no command was recognised (an unknown command);
 * - `schema_version`: the integer version of these documents (SCHEMA_VERSION);
 * - `error`: null when ok, else one object: `message` (the `ongrid-skill: …` line's text),
 *   `kind` (ErrorKind), `hint` when the stderr line had one, and the fields its kind documents;
 * - `manager_version`: the ongrid manager release the command answered for (core/releases), in
 *   the documents of the commands that answer for one, once it has been chosen.
 *
 * Then the command's own fields, snake_case. Every document is made by `envelope`.
 */

import { EXIT_KINDS } from './exit-kinds.js'

/** Bumped when a document changes incompatibly (a key renamed or removed, a meaning changed). */
export const SCHEMA_VERSION = 1

/**
 * What kind of failure an `error` is; its exit code follows from it:
 * - `findings` (1): lint, validate, marketplace check/verify found errors (or too many warnings);
 *   load-dirs --strict saw lines that are not registrations;
 * - `failed` (1): `run`: the skill failed; `test`: a case failed; `init`: the build step failed;
 * - `usage` (2): bad flags, arguments or input, an unknown command, a path, config, database or
 *   pack that cannot be used; nothing was written;
 * - `timeout` (3), `bad_args` (4, with `issues`: the schema's complaints), `forbidden` (5, with
 *   `status`: 403): `run` only;
 * - `unreachable` (3), `unauthorized` (4), `refused` (5): `remote` only: the manager could not be
 *   reached in time; not logged in or the session ended; the manager refused the request (with
 *   `http_status`, and `manager_error`/`manager_code`: its own text and code, when it answered);
 * - `untraceable` (6: `run` and `test`): --trace, --sandbox or a case's expect.effects, and strace
 *   or bubblewrap is not installed or cannot run; `class_violated` (7: `run --trace`): the entry
 *   succeeded, but a safe skill changed the host;
 * - `internal` (70): a bug in ongrid-skill;
 * - `signal` (128 + n, with `signal`: its name): stopped by a signal.
 */
export const ERROR_KINDS = [
  'findings',
  'failed',
  'usage',
  'timeout',
  'bad_args',
  'forbidden',
  'unreachable',
  'unauthorized',
  'refused',
  'internal',
  'signal',
  'untraceable',
  'class_violated',
] as const
export type ErrorKind = (typeof ERROR_KINDS)[number]

/** The `error` of a document that is not ok. */
export interface JsonError {
  message: string
  kind: ErrorKind
  /** The `hint: …` line's text, when the failure had one. */
  hint?: string
  [field: string]: unknown
}

export interface Envelope {
  ok: boolean
  exit_code: number
  command: string | null
  schema_version: typeof SCHEMA_VERSION
  error: JsonError | null
  manager_version?: string
}

/** The manager release this process's documents answer for, once a command has chosen it. */
let answeredFor: string | null = null

/** Names the manager release every document made from now on answers for (null: none). */
export function answerFor(version: string | null): void {
  answeredFor = version
}

const SIGNALS: Record<number, string> = { 129: 'SIGHUP', 130: 'SIGINT', 131: 'SIGQUIT', 143: 'SIGTERM' }

/**
 * The kind of a failure with this exit code, for this command: the kind its spec declares for the
 * code (ui/exit-kinds.ts, generated from src/cli/specs/); else 70 is internal, a code over 128 a
 * signal, 1 failed and any other code usage.
 */
export function errorKind(
  command: string | null,
  exitCode: number,
  kinds: Record<string, Record<number, ErrorKind>> = EXIT_KINDS,
): ErrorKind {
  if (exitCode === 70) return 'internal'
  if (exitCode > 128) return 'signal'
  const declared = command === null || !Object.hasOwn(kinds, command) ? undefined : kinds[command][exitCode]
  return declared ?? (exitCode === 1 ? 'failed' : 'usage')
}

/**
 * The `error` for a failure with this exit code: its kind from the code (errorKind), and the
 * `signal` name for a stop signal's code. `fields` adds what the kind documents (`hint`, `issues`…).
 */
export function jsonError(
  command: string | null,
  exitCode: number,
  message: string,
  fields: Record<string, unknown> = {},
): JsonError {
  const kind = errorKind(command, exitCode)
  const error: JsonError = { message, kind }
  if (kind === 'signal' && SIGNALS[exitCode] !== undefined) error.signal = SIGNALS[exitCode]
  return Object.assign(error, fields)
}

/**
 * A command's document: the envelope, then its own fields (which may not use the envelope's
 * names). `error` is null when the exit code is 0; for any other code, the one given, or else
 * `jsonError(command, exitCode, message)` with the message given.
 */
export function envelope<F extends Record<string, unknown>>(
  command: string | null,
  exitCode: number,
  fields: F,
  error: JsonError | string | null = null,
): Envelope & F {
  const head: Envelope = {
    ok: exitCode === 0,
    exit_code: exitCode,
    command,
    schema_version: SCHEMA_VERSION,
    error:
      exitCode === 0
        ? null
        : typeof error === 'string'
          ? jsonError(command, exitCode, error)
          : (error ?? jsonError(command, exitCode, `exit status ${exitCode}`)),
  }
  if (answeredFor !== null) head.manager_version = answeredFor
  for (const k of Object.keys(head)) {
    if (k in fields) throw new Error(`a --json document's own field may not be named ${k}`)
  }
  return { ...head, ...fields }
}

/** A command id as oclif spells it (`marketplace:check`) as typed (`marketplace check`). */
export function commandName(id: string): string {
  return id.replaceAll(':', ' ')
}
