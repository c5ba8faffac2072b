import { UserError } from '../core/errors.js'

/**
 * Number flags, the same in every command (`test -j`, `mcp --jobs`/`--max-sessions`/`--http`,
 * `audit tail -n`, `lint --max-warnings`). They are string flags on both parsers (oclif's integer
 * parser is not in the manifest the fast path reads), so this is the one place their text becomes
 * a number: digits only (not `1e2`, `0x10`, `5.0`, ` 5`, `+3` or ''), within bounds, and one
 * sentence when it is not — the flag as the user typed it (typedFlag), the value, the range.
 */
export interface NumberRange {
  min: number
  /** Omitted: no bound of the flag's own; a longer number is read as the largest safe integer. */
  max?: number
}

/** `--jobs 0: expected a whole number from 1 to 1024`, `-n x: expected a whole number, 0 or more`. */
export function numberFlagProblem(flag: string, value: string, { min, max }: NumberRange): string {
  const shown = /^[\x21-\x7e]+$/.test(value) ? value : JSON.stringify(value)
  const range = max === undefined ? `, ${min} or more` : ` from ${min} to ${max}`
  return `${flag} ${shown}: expected a whole number${range}`
}

/**
 * The value of a number flag, or a UserError (exit 2) with numberFlagProblem's text. `name` is
 * the long name (`jobs`); `char` its short one, so that the error names what was typed.
 */
export function parseNumberFlag(
  name: string,
  value: string,
  range: NumberRange,
  char?: string,
  argv: readonly string[] = process.argv.slice(2),
): number {
  let n = Number.NaN
  if (/^\d+$/.test(value)) {
    const big = BigInt(value)
    if (big <= BigInt(Number.MAX_SAFE_INTEGER)) n = Number(big)
    else if (range.max === undefined) n = Number.MAX_SAFE_INTEGER
  }
  if (Number.isNaN(n) || n < range.min || (range.max !== undefined && n > range.max)) {
    throw new UserError(numberFlagProblem(typedFlag(name, char, argv), value, range))
  }
  return n
}

/**
 * How the user named a flag on the command line: `-o`, `--output` or an alias (`--out`), the last
 * use before `--` (the one whose value counts). `--name` when it is not there (an action called
 * in process, a default).
 */
export function typedFlag(
  name: string,
  char?: string,
  argv: readonly string[] = process.argv.slice(2),
  aliases: readonly string[] = [],
): string {
  let typed = `--${name}`
  const longs = [name, ...aliases]
  for (const tok of argv) {
    if (tok === '--') break
    if (char !== undefined && (tok === `-${char}` || (tok.startsWith(`-${char}`) && !tok.startsWith('--'))))
      typed = `-${char}`
    else {
      const long = longs.find((l) => tok === `--${l}` || tok.startsWith(`--${l}=`))
      if (long !== undefined) typed = `--${long}`
    }
  }
  return typed
}

/** `-j`/`--jobs` of `test` and `mcp`: at once, 1 to 1024. */
export const MAX_JOBS: NumberRange = { min: 1, max: 1024 }

/** A TCP port (`mcp --http`; 0: one the system picks). */
export const PORT: NumberRange = { min: 0, max: 65535 }
