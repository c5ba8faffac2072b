/**
 * Go's encoding/pem Decode (pem.go): the first well-formed block anywhere in the input (text
 * before and after it allowed, any type, headers allowed), its body decoded with StdEncoding
 * after spaces and tabs are removed. A block that looks like PEM but is not valid is skipped
 * and the search goes on after its BEGIN line, as Go does.
 */
import { decodeString } from '../base64/base64.js'

export interface Block {
  type: string
  headers: Map<string, string>
  bytes: Buffer
}

const PEM_START = '\n-----BEGIN '
const PEM_END = '\n-----END '
const PEM_END_OF_LINE = '-----'

/** getLine: up to `\n` (one `\r` before it dropped), right-trimmed of spaces and tabs. */
function getLine(data: string): [string, string] {
  let i = data.indexOf('\n')
  let j: number
  if (i < 0) {
    i = data.length
    j = i
  } else {
    j = i + 1
    if (i > 0 && data.charCodeAt(i - 1) === 0x0d) i--
  }
  let e = i
  while (e > 0 && (data.charCodeAt(e - 1) === 0x20 || data.charCodeAt(e - 1) === 0x09)) e--
  return [data.slice(0, e), data.slice(j)]
}

/** bytes.TrimSpace on ASCII white space (the only kind a PEM header's bytes matter for here). */
function trimAsciiSpace(s: string): string {
  return s.replace(/^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g, '')
}

/** pem.Decode(data) for a byte string: the block, or null when there is none. */
export function decode(data: string): Block | null {
  let rest = data
  for (;;) {
    if (rest.startsWith(PEM_START.slice(1))) rest = rest.slice(PEM_START.length - 1)
    else {
      const i = rest.indexOf(PEM_START)
      if (i < 0) return null
      rest = rest.slice(i + PEM_START.length)
    }
    let typeLine: string
    ;[typeLine, rest] = getLine(rest)
    if (!typeLine.endsWith(PEM_END_OF_LINE)) continue
    typeLine = typeLine.slice(0, typeLine.length - PEM_END_OF_LINE.length)
    const headers = new Map<string, string>()
    let exhausted = false
    for (;;) {
      if (rest.length === 0) {
        exhausted = true
        break
      }
      const [line, next] = getLine(rest)
      const colon = line.indexOf(':')
      if (colon < 0) break
      headers.set(trimAsciiSpace(line.slice(0, colon)), trimAsciiSpace(line.slice(colon + 1)))
      rest = next
    }
    if (exhausted) return null
    let endIndex: number
    let endTrailerIndex: number
    if (headers.size === 0 && rest.startsWith(PEM_END.slice(1))) {
      endIndex = 0
      endTrailerIndex = PEM_END.length - 1
    } else {
      endIndex = rest.indexOf(PEM_END)
      endTrailerIndex = endIndex + PEM_END.length
    }
    if (endIndex < 0) continue
    let endTrailer = rest.slice(endTrailerIndex)
    const endTrailerLen = typeLine.length + PEM_END_OF_LINE.length
    if (endTrailer.length < endTrailerLen) continue
    const restOfEndLine = endTrailer.slice(endTrailerLen)
    endTrailer = endTrailer.slice(0, endTrailerLen)
    if (!endTrailer.startsWith(typeLine) || !endTrailer.endsWith(PEM_END_OF_LINE)) continue
    if (getLine(restOfEndLine)[0].length !== 0) continue
    const body = rest.slice(0, endIndex).replace(/[ \t]/g, '')
    const decoded = decodeString(body)
    if (!decoded.ok) continue
    return { type: typeLine, headers, bytes: decoded.value }
  }
}
