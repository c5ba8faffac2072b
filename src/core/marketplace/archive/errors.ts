/** An extraction's failure: the upload endpoint's text after `invalid argument\n` (`exact` false when it is ours). */

import type { GoString } from '../../go/gostring.js'
import { fromNodeError } from '../../go/os/errors.js'

export class ExtractError extends Error {
  constructor(
    readonly goText: GoString,
    readonly exact = true,
  ) {
    super(goText)
  }
}

/** A Node error of `op` on `p`, as Go's os package words it. */
export function osErr(e: unknown, op: string, p: GoString): never {
  throw new ExtractError(fromNodeError(e, op, p).error())
}
