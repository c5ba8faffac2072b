import { UnmarshalTypeError } from '../../go/encoding/json/decode.js'
import { SyntaxError as JsonSyntaxError, UNEXPECTED_END } from '../../go/encoding/json/scanner.js'
import { WrapError } from '../../go/errors.js'
import { toText } from '../../go/gostring.js'
import { pack, packText } from './examples.js'
import type { ManifestRule } from './util.js'

/** Where Go stopped: the byte at SyntaxError.Offset-1 (the end, for unexpected end of input). */
export function syntaxOffset(e: JsonSyntaxError): number {
  return e.msg === UNEXPECTED_END ? e.offset : Math.max(0, e.offset - 1)
}

const rule: ManifestRule = {
  id: 'manager/parse',
  severity: 'error',
  category: 'manager',
  kind: 'manifest',
  docs: 'The loader cannot read or decode skill.json (`read: …` / `decode: …`, Go’s own error text).',
  examples: { bad: [{ files: packText('{\n  "name": "disk_free",\n}\n') }], good: [{ files: pack() }] },
  check(ctx, report) {
    const err = ctx.parsed?.err
    if (!err) return
    const inner = err instanceof WrapError ? err.err : err
    let at: number | null = null
    let hint: string | undefined
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
        if (k && inner.field === 'timeout_seconds')
          hint = 'timeout_seconds must be a whole JSON number of seconds, e.g. 30.'
        else if (k && inner.field === 'env_allow')
          hint = 'env_allow must be an array of strings, e.g. ["PATH"].'
        else if (k) hint = `${inner.field} must be a JSON ${inner.type === 'string' ? 'string' : inner.type}.`
      }
    }
    report({ at, message: toText(err.error()), hint })
  },
}
export default rule
