import { UnmarshalTypeError } from '../../go/encoding/json/decode.js'
import { SyntaxError as JsonSyntaxError, UNEXPECTED_END } from '../../go/encoding/json/scanner.js'
import { WrapError } from '../../go/errors.js'
import type { GoString } from '../../go/gostring.js'
import { toText } from '../../go/gostring.js'
import { pack, packText } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'
import type { TextEdit } from '../types.js'

/** Where Go stopped: the byte at SyntaxError.Offset-1 (the end, for unexpected end of input). */
export function syntaxOffset(e: JsonSyntaxError): number {
  return e.msg === UNEXPECTED_END ? e.offset : Math.max(0, e.offset - 1)
}

const MAX_INT64 = 2n ** 63n - 1n

/**
 * Pure fixer: the edit that writes a JSON string of digits at `[start, end)` (`"30"`) as the
 * number it spells (`30`), or null (other text, escapes, past Go's int64).
 */
export function fixDigitString(raw: GoString, start: number, end: number): TextEdit | null {
  const m = /^"([0-9]+)"$/.exec(raw.slice(start, end))
  if (!m) return null
  const n = BigInt(m[1])
  return n > MAX_INT64 ? null : { range: [start, end], text: n.toString() }
}

const rule: ManifestRule = {
  id: 'manager/parse',
  severity: 'error',
  category: 'manager',
  kind: 'manifest',
  docs: 'The loader cannot read or decode skill.json (`read: …` / `decode: …`, Go’s own error text).',
  fixSafety: {
    safe: true,
    because:
      'the manager refuses the file as it is; the fix writes a string of digits where Go wants a number as that number, so the pack loads with the value its author wrote.',
  },
  examples: {
    bad: [{ files: packText('{\n  "name": "disk_free",\n}\n') }, { files: pack({ timeout_seconds: '30' }) }],
    good: [{ files: pack() }],
  },
  fixable: 'text',
  check(ctx, report) {
    const err = ctx.parsed?.err
    if (!err) return
    const inner = err instanceof WrapError ? err.err : err
    let at: number | null = null
    let hint: string | undefined
    let edit: TextEdit | null = null
    if (inner instanceof JsonSyntaxError) {
      at = syntaxOffset(inner)
      if (ctx.raw.startsWith('\xef\xbb\xbf') && inner.offset === 1) {
        hint = 'the file starts with a UTF-8 byte order mark: save it without BOM.'
      }
    } else if (inner instanceof UnmarshalTypeError) {
      if (inner.field === '') {
        const m = /\S/.exec(ctx.raw)
        at = m ? m.index : 0
      } else {
        const k = ctx.parsed?.keys.find((k) => k.valueOffset < inner.offset && inner.offset <= k.valueEnd)
        at = k ? k.offset : null
        if (k && inner.field === 'timeout_seconds') {
          hint = 'timeout_seconds must be a whole JSON number of seconds, e.g. 30.'
          if (inner.value === 'string') edit = fixDigitString(ctx.raw, k.valueOffset, k.valueEnd)
        } else if (k && inner.field === 'env_allow')
          hint = 'env_allow must be an array of strings, e.g. ["PATH"].'
        else if (k) hint = `${inner.field} must be a JSON ${inner.type === 'string' ? 'string' : inner.type}.`
      }
    }
    report({ at, message: toText(err.error()), hint, ...(edit ? { fix: { edits: [edit] } } : {}) })
  },
}
export default rule
