import { appendJSONString } from '../../encoding/json/encode.js'
import type { GoString } from '../../gostring.js'
import { formatRFC3339Nano } from '../../time/format.js'

/** slog.Level names as the JSON handler prints them. */
export type Level = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR'

/** An attribute value: strings print as JSON strings, bigints/numbers as JSON numbers. */
export type AttrValue = GoString | number | bigint

/**
 * One record as Go's slog.JSONHandler writes it: `time`, `level`, `msg`, then the
 * attributes in order (the logger's `With` attributes first), one line, newline-terminated.
 * Strings are escaped as slog does (HTML characters left raw).
 */
export function jsonRecord(
  epochNs: bigint,
  level: Level,
  msg: GoString,
  attrs: [string, AttrValue][],
): GoString {
  let out = `{"time":"${formatRFC3339Nano(epochNs)}","level":"${level}","msg":${appendJSONString(msg, false)}`
  for (const [k, v] of attrs) {
    out += `,${appendJSONString(k, false)}:`
    out += typeof v === 'string' ? appendJSONString(v, false) : String(v)
  }
  return `${out}}\n`
}
