import type { GoString } from './gostring.js'

/** A Go `error` value: all that callers may rely on is its text, as Go prints it with %v. */
export interface GoError {
  error(): GoString
}

/** errors.New */
export class ErrorString implements GoError {
  constructor(readonly text: GoString) {}
  error(): GoString {
    return this.text
  }
}

/** fmt.Errorf("prefix: %w", err): the wrapped error stays reachable through `unwrap`. */
export class WrapError implements GoError {
  constructor(
    readonly prefix: GoString,
    readonly err: GoError,
  ) {}
  error(): GoString {
    return this.prefix + this.err.error()
  }
  unwrap(): GoError {
    return this.err
  }
}

/** Go's (value, error) pair. */
export type Result<T> = { ok: true; value: T } | { ok: false; err: GoError }

export function ok<T>(value: T): Result<T> {
  return { ok: true, value }
}

export function fail<T>(err: GoError): Result<T> {
  return { ok: false, err }
}
