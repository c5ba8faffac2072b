import type { ErrorKind } from '../ui/envelope.js'

/**
 * A command described once, as data (no oclif): its help, arguments, flags, exit codes and output
 * schema. `cli/command-from.ts` makes the oclif class of it, `cli/specs/index.ts` lists the specs
 * with their actions for the fast path, and an action's input is typed by it (InputOf).
 */

interface FlagBase {
  /** What --help says of it (a hidden flag may go without). */
  description?: string
  char?: string
  exclusive?: readonly string[]
  helpValue?: string
  hidden?: boolean
}

/** A flag without a value (`--quiet`; `--no-audit` with allowNo). */
export interface BooleanFlagSpec extends FlagBase {
  type: 'boolean'
  allowNo?: boolean
}

/** A flag with a value (oclif: an option flag). */
export interface StringFlagSpec extends FlagBase {
  type: 'string'
  multiple?: boolean
  multipleNonGreedy?: boolean
  options?: readonly string[]
  default?: string
  required?: boolean
}

/** A flag whose value is one of `options`, typed as their union. */
export interface OptionFlagSpec extends FlagBase {
  type: 'option'
  options: readonly string[]
  default?: string
}

export type FlagSpec = BooleanFlagSpec | StringFlagSpec | OptionFlagSpec

/** A positional argument (a string; stdin is never read for it). */
export interface ArgSpec {
  description: string
  required?: boolean
  default?: string
  options?: readonly string[]
}

/** One exit code of a command: what it means there (its --help line) and its `error.kind` in --json. */
export interface ExitSpec {
  code: number
  kind: ErrorKind | 'ok'
  help: string
}

export interface CommandSpec {
  /** oclif's id: the words of the command line joined by ':' (`marketplace:check`). */
  id: string
  summary: string
  /** The help's text; the exit codes' line is added after it (exitCodesLine). */
  description: string
  /** [what it does, the command line] pairs (`<%= config.bin %>` and `<%= command.id %>` expanded). */
  examples: readonly (readonly [description: string, command: string])[]
  args?: Readonly<Record<string, ArgSpec>>
  flags?: Readonly<Record<string, FlagSpec>>
  /** Takes more arguments than it names (PATH...). */
  strict?: boolean
  /** Whether oclif adds --json (default true; audit tail defines its own, lsp has none). */
  json?: boolean
  exits: readonly ExitSpec[]
  /** The file of its --json document's schema under schemas/output/ (null: no --json). */
  schema: string | null
}

/** The flag builders: a spec's flags keep their literal types, which InputOf reads. */
export const flag = {
  boolean: <const F extends Omit<BooleanFlagSpec, 'type'>>(f: F): F & { type: 'boolean' } => ({
    ...f,
    type: 'boolean',
  }),
  string: <const F extends Omit<StringFlagSpec, 'type'>>(f: F): F & { type: 'string' } => ({
    ...f,
    type: 'string',
  }),
  option: <const F extends Omit<OptionFlagSpec, 'type'>>(f: F): F & { type: 'option' } => ({
    ...f,
    type: 'option',
  }),
}

/** A spec, checked and with its literal types kept. */
export const defineSpec = <const S extends CommandSpec>(spec: S): S => spec

/** The value a flag gives its action: a boolean not given is undefined; a default is always there. */
type FlagValue<F> = F extends { type: 'boolean' }
  ? boolean | undefined
  : F extends { type: 'option'; options: readonly (infer O)[] }
    ? O | (F extends { default: string } ? never : undefined)
    : F extends { multiple: true }
      ? string[] | (F extends { required: true } ? never : undefined)
      : string | (F extends { default: string } | { required: true } ? never : undefined)

type ArgValue<A> = A extends { required: true } | { default: string } ? string : string | undefined

/** A flag that may be undefined may be left out. */
type Optional<O> = { [K in keyof O as undefined extends O[K] ? K : never]?: O[K] } & {
  [K in keyof O as undefined extends O[K] ? never : K]: O[K]
}

type FlagsOf<S> = S extends { flags: infer F } ? { [K in keyof F]: FlagValue<F[K]> } : object
type ArgsOf<S> = S extends { args: infer A } ? { [K in keyof A]: ArgValue<A[K]> } : object

/** What a command's action receives, from oclif's parser or the fast path, typed by its spec. */
export interface SpecInput<S> {
  args: ArgsOf<S>
  argv: string[]
  /** Flags as given, defaults applied; --json (every command has it but lsp) among them. */
  flags: Optional<FlagsOf<S> & { json: boolean | undefined }>
}

/**
 * The `error.kind` of each exit code the specs declare, by command as typed (`marketplace check`):
 * what `scripts/gen-exit-kinds.mjs` writes into ui/exit-kinds.ts for the envelope. Exit 0 is no error.
 */
export function exitKindsOf(specs: readonly CommandSpec[]): Record<string, Record<number, ErrorKind>> {
  const table: Record<string, Record<number, ErrorKind>> = {}
  for (const s of [...specs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const kinds: Record<number, ErrorKind> = {}
    for (const e of s.exits) if (e.kind !== 'ok') kinds[e.code] = e.kind
    table[s.id.replaceAll(':', ' ')] = kinds
  }
  return table
}

/**
 * The exit codes' line of a command's --help, from its spec: `Exit codes: 0 ok, 1 …, 2 ….`; the
 * items are separated by '; ' when one has a comma of its own (outside parentheses).
 */
export function exitCodesLine(exits: readonly ExitSpec[]): string {
  const items = exits.map((e) => `${e.code} ${e.help}`)
  const bare = (s: string) => s.replace(/\([^()]*\)/g, '')
  const sep = items.some((i) => bare(i).includes(',')) ? '; ' : ', '
  return `Exit codes: ${items.join(sep)}.`
}

/** A command's whole help text: its description, then its exit codes. */
export function helpDescription(spec: Pick<CommandSpec, 'description' | 'exits'>): string {
  return `${spec.description}\n\n${exitCodesLine(spec.exits)}`
}
