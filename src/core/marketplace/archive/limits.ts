/**
 * What an extraction may write: the endpoint's 128 MiB cut of each file, and limits of ours (a
 * bomb) on what the whole archive expands to; the upload itself is held whole (framing.ts).
 */

import { ExtractError } from './errors.js'

/** The endpoint copies at most this much of each entry (io.CopyN). */
export const MAX_EXTRACTED_FILE = 128 << 20

/** How much an archive may expand to, and how many entries it may hold, before we stop. */
export const EXTRACT_LIMITS = { bytes: 1 << 30, entries: 100_000 }

const OURS_LIMIT =
  " (a limit of ongrid-skill's, not the manager's: the upload endpoint has no total limit and writes it all, each file cut at 128 MiB)"

/** Stops an extraction that grows past what we are willing to write (limits of ours, not the manager's). */
export class TooBig extends ExtractError {
  constructor(what: string) {
    super(`${what}; not extracted further${OURS_LIMIT}`, false)
  }
}

function sizeText(n: number): string {
  return n >= 1 << 30 && n % (1 << 30) === 0 ? `${n / (1 << 30)} GiB` : `${Math.round(n / (1 << 20))} MiB`
}

/** The bytes and entries one extraction has written so far, stopped at EXTRACT_LIMITS. */
export class Budget {
  bytes = 0
  entries = 0
  add(n: number): void {
    this.bytes += n
    if (this.bytes > EXTRACT_LIMITS.bytes)
      throw new TooBig(`the archive expands past ${sizeText(EXTRACT_LIMITS.bytes)}`)
  }
  entry(): void {
    if (++this.entries > EXTRACT_LIMITS.entries)
      throw new TooBig(`the archive holds more than ${EXTRACT_LIMITS.entries} entries`)
  }
}
