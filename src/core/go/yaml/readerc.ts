/**
 * gopkg.in/yaml.v3 (v3.0.1) readerc.go with the string read handler of apic.go: the input is
 * read in 512-byte chunks, decoded (UTF-8, or UTF-16 after its BOM) and checked chunk by chunk,
 * so a bad byte is reported only when the scanner first needs its chunk.
 */
import { Encoding, ErrorType, INPUT_BUFFER_SIZE, INPUT_RAW_BUFFER_SIZE, type ParserState } from './yamlh.js'

function setReaderError(parser: ParserState, problem: string, offset: number, value: number): boolean {
  parser.error = ErrorType.READER
  parser.problem = problem
  parser.problem_offset = offset
  parser.problem_value = value
  return false
}

/** yaml_string_read_handler into raw_buffer[len:cap]; returns false at EOF. */
function readHandler(parser: ParserState): boolean {
  if (parser.input_pos === parser.input.length) return false
  const room = INPUT_RAW_BUFFER_SIZE - parser.raw_buffer_len
  const n = Math.min(room, parser.input.length - parser.input_pos)
  for (let k = 0; k < n; k++) {
    parser.raw_buffer[parser.raw_buffer_len + k] = parser.input.charCodeAt(parser.input_pos + k)
  }
  parser.input_pos += n
  parser.raw_buffer_len += n
  return true
}

function determineEncoding(parser: ParserState): boolean {
  while (!parser.eof && parser.raw_buffer_len - parser.raw_buffer_pos < 3) {
    if (!updateRawBuffer(parser)) return false
  }
  const buf = parser.raw_buffer
  const pos = parser.raw_buffer_pos
  const avail = parser.raw_buffer_len - pos
  if (avail >= 2 && buf[pos] === 0xff && buf[pos + 1] === 0xfe) {
    parser.encoding = Encoding.UTF16LE
    parser.raw_buffer_pos += 2
    parser.offset += 2
  } else if (avail >= 2 && buf[pos] === 0xfe && buf[pos + 1] === 0xff) {
    parser.encoding = Encoding.UTF16BE
    parser.raw_buffer_pos += 2
    parser.offset += 2
  } else if (avail >= 3 && buf[pos] === 0xef && buf[pos + 1] === 0xbb && buf[pos + 2] === 0xbf) {
    parser.encoding = Encoding.UTF8
    parser.raw_buffer_pos += 3
    parser.offset += 3
  } else {
    parser.encoding = Encoding.UTF8
  }
  return true
}

function updateRawBuffer(parser: ParserState): boolean {
  if (parser.raw_buffer_pos === 0 && parser.raw_buffer_len === INPUT_RAW_BUFFER_SIZE) return true
  if (parser.eof) return true
  if (parser.raw_buffer_pos > 0 && parser.raw_buffer_pos < parser.raw_buffer_len) {
    parser.raw_buffer.copyWithin(0, parser.raw_buffer_pos, parser.raw_buffer_len)
  }
  parser.raw_buffer_len -= parser.raw_buffer_pos
  parser.raw_buffer_pos = 0
  if (!readHandler(parser)) parser.eof = true
  return true
}

/** yaml_parser_update_buffer: at least `length` characters in the working buffer. */
export function updateBuffer(parser: ParserState, length: number): boolean {
  if (parser.unread >= length) return true
  if (parser.encoding === Encoding.ANY) {
    if (!determineEncoding(parser)) return false
  }
  let buffer_len = parser.buffer_len
  if (parser.buffer_pos > 0 && parser.buffer_pos < buffer_len) {
    parser.buffer.copyWithin(0, parser.buffer_pos, buffer_len)
    buffer_len -= parser.buffer_pos
    parser.buffer_pos = 0
  } else if (parser.buffer_pos === buffer_len) {
    buffer_len = 0
    parser.buffer_pos = 0
  }
  const buffer = parser.buffer
  const raw = parser.raw_buffer
  // parser.buffer[:cap]: what the buffer's length stays at when a reader error returns.
  parser.buffer_len = INPUT_BUFFER_SIZE
  let first = true
  while (parser.unread < length) {
    if (!first || parser.raw_buffer_pos === parser.raw_buffer_len) {
      if (!updateRawBuffer(parser)) {
        parser.buffer_len = buffer_len
        return false
      }
    }
    first = false
    while (parser.raw_buffer_pos !== parser.raw_buffer_len) {
      let value = 0
      let w = 0
      const raw_unread = parser.raw_buffer_len - parser.raw_buffer_pos
      if (parser.encoding === Encoding.UTF8) {
        let octet = raw[parser.raw_buffer_pos]
        if ((octet & 0x80) === 0x00) w = 1
        else if ((octet & 0xe0) === 0xc0) w = 2
        else if ((octet & 0xf0) === 0xe0) w = 3
        else if ((octet & 0xf8) === 0xf0) w = 4
        else return setReaderError(parser, 'invalid leading UTF-8 octet', parser.offset, octet)
        if (w > raw_unread) {
          if (parser.eof) {
            return setReaderError(parser, 'incomplete UTF-8 octet sequence', parser.offset, -1)
          }
          break
        }
        if ((octet & 0x80) === 0x00) value = octet & 0x7f
        else if ((octet & 0xe0) === 0xc0) value = octet & 0x1f
        else if ((octet & 0xf0) === 0xe0) value = octet & 0x0f
        else value = octet & 0x07
        for (let k = 1; k < w; k++) {
          octet = raw[parser.raw_buffer_pos + k]
          if ((octet & 0xc0) !== 0x80) {
            return setReaderError(parser, 'invalid trailing UTF-8 octet', parser.offset + k, octet)
          }
          value = (value << 6) + (octet & 0x3f)
        }
        if (
          !(
            w === 1 ||
            (w === 2 && value >= 0x80) ||
            (w === 3 && value >= 0x800) ||
            (w === 4 && value >= 0x10000)
          )
        ) {
          return setReaderError(parser, 'invalid length of a UTF-8 sequence', parser.offset, -1)
        }
        if ((value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff) {
          return setReaderError(parser, 'invalid Unicode character', parser.offset, value)
        }
      } else {
        const [low, high] = parser.encoding === Encoding.UTF16LE ? [0, 1] : [1, 0]
        if (raw_unread < 2) {
          if (parser.eof) return setReaderError(parser, 'incomplete UTF-16 character', parser.offset, -1)
          break
        }
        value = raw[parser.raw_buffer_pos + low] + (raw[parser.raw_buffer_pos + high] << 8)
        if ((value & 0xfc00) === 0xdc00) {
          return setReaderError(parser, 'unexpected low surrogate area', parser.offset, value)
        }
        if ((value & 0xfc00) === 0xd800) {
          w = 4
          if (raw_unread < 4) {
            if (parser.eof) {
              return setReaderError(parser, 'incomplete UTF-16 surrogate pair', parser.offset, -1)
            }
            break
          }
          const value2 = raw[parser.raw_buffer_pos + low + 2] + (raw[parser.raw_buffer_pos + high + 2] << 8)
          if ((value2 & 0xfc00) !== 0xdc00) {
            return setReaderError(parser, 'expected low surrogate area', parser.offset + 2, value2)
          }
          value = 0x10000 + ((value & 0x3ff) << 10) + (value2 & 0x3ff)
        } else {
          w = 2
        }
      }
      if (
        !(
          value === 0x09 ||
          value === 0x0a ||
          value === 0x0d ||
          (value >= 0x20 && value <= 0x7e) ||
          value === 0x85 ||
          (value >= 0xa0 && value <= 0xd7ff) ||
          (value >= 0xe000 && value <= 0xfffd) ||
          (value >= 0x10000 && value <= 0x10ffff)
        )
      ) {
        return setReaderError(parser, 'control characters are not allowed', parser.offset, value)
      }
      parser.raw_buffer_pos += w
      parser.offset += w
      if (value <= 0x7f) {
        buffer[buffer_len++] = value
      } else if (value <= 0x7ff) {
        buffer[buffer_len++] = 0xc0 + (value >> 6)
        buffer[buffer_len++] = 0x80 + (value & 0x3f)
      } else if (value <= 0xffff) {
        buffer[buffer_len++] = 0xe0 + (value >> 12)
        buffer[buffer_len++] = 0x80 + ((value >> 6) & 0x3f)
        buffer[buffer_len++] = 0x80 + (value & 0x3f)
      } else {
        buffer[buffer_len++] = 0xf0 + (value >> 18)
        buffer[buffer_len++] = 0x80 + ((value >> 12) & 0x3f)
        buffer[buffer_len++] = 0x80 + ((value >> 6) & 0x3f)
        buffer[buffer_len++] = 0x80 + (value & 0x3f)
      }
      parser.unread++
    }
    if (parser.eof) {
      buffer[buffer_len++] = 0
      parser.unread++
      break
    }
  }
  while (buffer_len < length) buffer[buffer_len++] = 0
  parser.buffer_len = buffer_len
  return true
}
