/**
 * gopkg.in/yaml.v3 (v3.0.1) scannerc.go: the tokens, the simple-key and indentation rules,
 * the comment scanning (it moves the scanner as yaml.v3's does), and the scanner's errors with
 * their texts and marks. A line-by-line port: the names are yaml.v3's.
 */
import { updateBuffer } from './readerc.js'
import {
  as_digit,
  as_hex,
  type Comment,
  comment,
  copyMark,
  ErrorType,
  insertToken,
  is_alpha,
  is_blank,
  is_blankz,
  is_bom,
  is_break,
  is_breakz,
  is_crlf,
  is_digit,
  is_hex,
  is_space,
  is_tab,
  is_z,
  type Mark,
  type ParserState,
  ScalarStyle,
  type SimpleKey,
  type Token,
  TokenType,
  token,
  width,
} from './yamlh.js'

const chr = String.fromCharCode

function skip(parser: ParserState): void {
  if (!is_blank(parser.buffer, parser.buffer_pos)) parser.newlines = 0
  parser.mark.index++
  parser.mark.column++
  parser.unread--
  parser.buffer_pos += width(parser.buffer[parser.buffer_pos])
}

function skip_line(parser: ParserState): void {
  if (is_crlf(parser.buffer, parser.buffer_pos)) {
    parser.mark.index += 2
    parser.mark.column = 0
    parser.mark.line++
    parser.unread -= 2
    parser.buffer_pos += 2
    parser.newlines++
  } else if (is_break(parser.buffer, parser.buffer_pos)) {
    parser.mark.index++
    parser.mark.column = 0
    parser.mark.line++
    parser.unread--
    parser.buffer_pos += width(parser.buffer[parser.buffer_pos])
    parser.newlines++
  }
}

function read(parser: ParserState, s: string): string {
  if (!is_blank(parser.buffer, parser.buffer_pos)) parser.newlines = 0
  const w = width(parser.buffer[parser.buffer_pos])
  if (w === 0) throw new Error('invalid character sequence')
  for (let k = 0; k < w; k++) s += chr(parser.buffer[parser.buffer_pos + k])
  parser.buffer_pos += w
  parser.mark.index++
  parser.mark.column++
  parser.unread--
  return s
}

function read_line(parser: ParserState, s: string): string {
  const buf = parser.buffer
  const pos = parser.buffer_pos
  if (buf[pos] === 0x0d && buf[pos + 1] === 0x0a) {
    s += '\n'
    parser.buffer_pos += 2
    parser.mark.index++
    parser.unread--
  } else if (buf[pos] === 0x0d || buf[pos] === 0x0a) {
    s += '\n'
    parser.buffer_pos += 1
  } else if (buf[pos] === 0xc2 && buf[pos + 1] === 0x85) {
    s += '\n'
    parser.buffer_pos += 2
  } else if (buf[pos] === 0xe2 && buf[pos + 1] === 0x80 && (buf[pos + 2] === 0xa8 || buf[pos + 2] === 0xa9)) {
    s += chr(buf[pos], buf[pos + 1], buf[pos + 2])
    parser.buffer_pos += 3
  } else {
    return s
  }
  parser.mark.index++
  parser.mark.column = 0
  parser.mark.line++
  parser.unread--
  parser.newlines++
  return s
}

function set_scanner_error(parser: ParserState, context: string, context_mark: Mark, problem: string): false {
  parser.error = ErrorType.SCANNER
  parser.context = context
  parser.context_mark = copyMark(context_mark)
  parser.problem = problem
  parser.problem_mark = copyMark(parser.mark)
  return false
}

function set_scanner_tag_error(
  parser: ParserState,
  directive: boolean,
  context_mark: Mark,
  problem: string,
): false {
  const context = directive ? 'while parsing a %TAG directive' : 'while parsing a tag'
  return set_scanner_error(parser, context, context_mark, problem)
}

export function fetch_more_tokens(parser: ParserState): boolean {
  for (;;) {
    if (parser.tokens_head < parser.tokens.length - 2) {
      const head_tok_idx = parser.simple_keys_by_tok.get(parser.tokens_parsed)
      if (head_tok_idx === undefined) break
      const [valid, ok] = simple_key_is_valid(parser, parser.simple_keys[head_tok_idx])
      if (!ok) return false
      if (!valid) break
    }
    if (!fetch_next_token(parser)) return false
  }
  parser.token_available = true
  return true
}

function lastToken(parser: ParserState, back = 1): Token {
  return parser.tokens[parser.tokens.length - back]
}

function fetch_next_token(parser: ParserState): boolean {
  if (parser.unread < 1 && !updateBuffer(parser, 1)) return false
  if (!parser.stream_start_produced) return fetch_stream_start(parser)
  const scan_mark = copyMark(parser.mark)
  if (!scan_to_next_token(parser)) return false
  if (!unroll_indent(parser, parser.mark.column, scan_mark)) return false
  if (parser.unread < 4 && !updateBuffer(parser, 4)) return false
  if (is_z(parser.buffer, parser.buffer_pos)) return fetch_stream_end(parser)
  const buf = parser.buffer
  const pos = parser.buffer_pos
  if (parser.mark.column === 0 && buf[pos] === 0x25) return fetch_directive(parser)
  if (
    parser.mark.column === 0 &&
    buf[pos] === 0x2d &&
    buf[pos + 1] === 0x2d &&
    buf[pos + 2] === 0x2d &&
    is_blankz(buf, pos + 3)
  ) {
    return fetch_document_indicator(parser, TokenType.DOCUMENT_START)
  }
  if (
    parser.mark.column === 0 &&
    buf[pos] === 0x2e &&
    buf[pos + 1] === 0x2e &&
    buf[pos + 2] === 0x2e &&
    is_blankz(buf, pos + 3)
  ) {
    return fetch_document_indicator(parser, TokenType.DOCUMENT_END)
  }
  let comment_mark = copyMark(parser.mark)
  if (
    parser.tokens.length > 0 &&
    ((parser.flow_level === 0 && buf[pos] === 0x3a) || (parser.flow_level > 0 && buf[pos] === 0x2c))
  ) {
    comment_mark = lastToken(parser).start_mark
  }
  const ok = fetch_token_at(parser)
  // The deferred line-comment scan.
  if (!ok) return false
  if (parser.tokens.length > 0 && lastToken(parser).typ === TokenType.BLOCK_ENTRY) return true
  return scan_line_comment(parser, comment_mark)
}

function fetch_token_at(parser: ParserState): boolean {
  const b = parser.buffer
  const p = parser.buffer_pos
  const c = b[p]
  if (c === 0x5b) return fetch_flow_collection_start(parser, TokenType.FLOW_SEQUENCE_START)
  if (c === 0x7b) return fetch_flow_collection_start(parser, TokenType.FLOW_MAPPING_START)
  if (c === 0x5d) return fetch_flow_collection_end(parser, TokenType.FLOW_SEQUENCE_END)
  if (c === 0x7d) return fetch_flow_collection_end(parser, TokenType.FLOW_MAPPING_END)
  if (c === 0x2c) return fetch_flow_entry(parser)
  if (c === 0x2d && is_blankz(b, p + 1)) return fetch_block_entry(parser)
  if (c === 0x3f && (parser.flow_level > 0 || is_blankz(b, p + 1))) return fetch_key(parser)
  if (c === 0x3a && (parser.flow_level > 0 || is_blankz(b, p + 1))) return fetch_value(parser)
  if (c === 0x2a) return fetch_anchor(parser, TokenType.ALIAS)
  if (c === 0x26) return fetch_anchor(parser, TokenType.ANCHOR)
  if (c === 0x21) return fetch_tag(parser)
  if (c === 0x7c && parser.flow_level === 0) return fetch_block_scalar(parser, true)
  if (c === 0x3e && parser.flow_level === 0) return fetch_block_scalar(parser, false)
  if (c === 0x27) return fetch_flow_scalar(parser, true)
  if (c === 0x22) return fetch_flow_scalar(parser, false)
  // '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`'
  const indicator = '-?:,[]{}#&*!|>\'"%@`'.includes(chr(c))
  if (
    !(is_blankz(b, p) || indicator) ||
    (c === 0x2d && !is_blank(b, p + 1)) ||
    (parser.flow_level === 0 && (c === 0x3f || c === 0x3a) && !is_blankz(b, p + 1))
  ) {
    return fetch_plain_scalar(parser)
  }
  return set_scanner_error(
    parser,
    'while scanning for the next token',
    parser.mark,
    'found character that cannot start any token',
  )
}

function simple_key_is_valid(parser: ParserState, simple_key: SimpleKey): [boolean, boolean] {
  if (!simple_key.possible) return [false, true]
  if (simple_key.mark.line < parser.mark.line || simple_key.mark.index + 1024 < parser.mark.index) {
    if (simple_key.required) {
      return [
        false,
        set_scanner_error(
          parser,
          'while scanning a simple key',
          simple_key.mark,
          "could not find expected ':'",
        ),
      ]
    }
    simple_key.possible = false
    return [false, true]
  }
  return [true, true]
}

function save_simple_key(parser: ParserState): boolean {
  const required = parser.flow_level === 0 && parser.indent === parser.mark.column
  if (parser.simple_key_allowed) {
    const simple_key: SimpleKey = {
      possible: true,
      required,
      token_number: parser.tokens_parsed + (parser.tokens.length - parser.tokens_head),
      mark: copyMark(parser.mark),
    }
    if (!remove_simple_key(parser)) return false
    parser.simple_keys[parser.simple_keys.length - 1] = simple_key
    parser.simple_keys_by_tok.set(simple_key.token_number, parser.simple_keys.length - 1)
  }
  return true
}

function remove_simple_key(parser: ParserState): boolean {
  const i = parser.simple_keys.length - 1
  const k = parser.simple_keys[i]
  if (k.possible) {
    if (k.required) {
      return set_scanner_error(parser, 'while scanning a simple key', k.mark, "could not find expected ':'")
    }
    k.possible = false
    parser.simple_keys_by_tok.delete(k.token_number)
  }
  return true
}

const MAX_FLOW_LEVEL = 10000

function increase_flow_level(parser: ParserState): boolean {
  parser.simple_keys.push({
    possible: false,
    required: false,
    token_number: parser.tokens_parsed + (parser.tokens.length - parser.tokens_head),
    mark: copyMark(parser.mark),
  })
  parser.flow_level++
  if (parser.flow_level > MAX_FLOW_LEVEL) {
    return set_scanner_error(
      parser,
      'while increasing flow level',
      parser.simple_keys[parser.simple_keys.length - 1].mark,
      `exceeded max depth of ${MAX_FLOW_LEVEL}`,
    )
  }
  return true
}

function decrease_flow_level(parser: ParserState): boolean {
  if (parser.flow_level > 0) {
    parser.flow_level--
    const last = parser.simple_keys.length - 1
    parser.simple_keys_by_tok.delete(parser.simple_keys[last].token_number)
    parser.simple_keys.pop()
  }
  return true
}

const MAX_INDENTS = 10000

function roll_indent(parser: ParserState, column: number, number: number, typ: TokenType, m: Mark): boolean {
  if (parser.flow_level > 0) return true
  if (parser.indent < column) {
    parser.indents.push(parser.indent)
    parser.indent = column
    if (parser.indents.length > MAX_INDENTS) {
      return set_scanner_error(
        parser,
        'while increasing indent level',
        parser.simple_keys[parser.simple_keys.length - 1].mark,
        `exceeded max depth of ${MAX_INDENTS}`,
      )
    }
    const tok = token(typ, copyMark(m), copyMark(m))
    if (number > -1) number -= parser.tokens_parsed
    insertToken(parser, number, tok)
  }
  return true
}

function unroll_indent(parser: ParserState, column: number, scan_mark: Mark): boolean {
  if (parser.flow_level > 0) return true
  let block_mark = copyMark(scan_mark)
  block_mark.index--
  while (parser.indent > column) {
    let stop_index = block_mark.index
    for (let i = parser.comments.length - 1; i >= 0; i--) {
      const c = parser.comments[i]
      if (c.end_mark.index < stop_index) break
      if (c.start_mark.column === parser.indent + 1) block_mark = copyMark(c.start_mark)
      stop_index = c.scan_mark.index
    }
    insertToken(parser, -1, token(TokenType.BLOCK_END, copyMark(block_mark), copyMark(block_mark)))
    parser.indent = parser.indents.pop() as number
  }
  return true
}

function fetch_stream_start(parser: ParserState): boolean {
  parser.indent = -1
  parser.simple_keys.push({
    possible: false,
    required: false,
    token_number: 0,
    mark: { index: 0, line: 0, column: 0 },
  })
  parser.simple_keys_by_tok = new Map()
  parser.simple_key_allowed = true
  parser.stream_start_produced = true
  insertToken(parser, -1, token(TokenType.STREAM_START, copyMark(parser.mark), copyMark(parser.mark)))
  return true
}

function fetch_stream_end(parser: ParserState): boolean {
  if (parser.mark.column !== 0) {
    parser.mark.column = 0
    parser.mark.line++
  }
  if (!unroll_indent(parser, -1, parser.mark)) return false
  if (!remove_simple_key(parser)) return false
  parser.simple_key_allowed = false
  insertToken(parser, -1, token(TokenType.STREAM_END, copyMark(parser.mark), copyMark(parser.mark)))
  return true
}

function fetch_directive(parser: ParserState): boolean {
  if (!unroll_indent(parser, -1, parser.mark)) return false
  if (!remove_simple_key(parser)) return false
  parser.simple_key_allowed = false
  const tok = scan_directive(parser)
  if (tok === null) return false
  insertToken(parser, -1, tok)
  return true
}

function fetch_document_indicator(parser: ParserState, typ: TokenType): boolean {
  if (!unroll_indent(parser, -1, parser.mark)) return false
  if (!remove_simple_key(parser)) return false
  parser.simple_key_allowed = false
  const start_mark = copyMark(parser.mark)
  skip(parser)
  skip(parser)
  skip(parser)
  insertToken(parser, -1, token(typ, start_mark, copyMark(parser.mark)))
  return true
}

function fetch_flow_collection_start(parser: ParserState, typ: TokenType): boolean {
  if (!save_simple_key(parser)) return false
  if (!increase_flow_level(parser)) return false
  parser.simple_key_allowed = true
  const start_mark = copyMark(parser.mark)
  skip(parser)
  insertToken(parser, -1, token(typ, start_mark, copyMark(parser.mark)))
  return true
}

function fetch_flow_collection_end(parser: ParserState, typ: TokenType): boolean {
  if (!remove_simple_key(parser)) return false
  if (!decrease_flow_level(parser)) return false
  parser.simple_key_allowed = false
  const start_mark = copyMark(parser.mark)
  skip(parser)
  insertToken(parser, -1, token(typ, start_mark, copyMark(parser.mark)))
  return true
}

function fetch_flow_entry(parser: ParserState): boolean {
  if (!remove_simple_key(parser)) return false
  parser.simple_key_allowed = true
  const start_mark = copyMark(parser.mark)
  skip(parser)
  insertToken(parser, -1, token(TokenType.FLOW_ENTRY, start_mark, copyMark(parser.mark)))
  return true
}

function fetch_block_entry(parser: ParserState): boolean {
  if (parser.flow_level === 0) {
    if (!parser.simple_key_allowed) {
      return set_scanner_error(
        parser,
        '',
        parser.mark,
        'block sequence entries are not allowed in this context',
      )
    }
    if (!roll_indent(parser, parser.mark.column, -1, TokenType.BLOCK_SEQUENCE_START, parser.mark))
      return false
  }
  if (!remove_simple_key(parser)) return false
  parser.simple_key_allowed = true
  const start_mark = copyMark(parser.mark)
  skip(parser)
  insertToken(parser, -1, token(TokenType.BLOCK_ENTRY, start_mark, copyMark(parser.mark)))
  return true
}

function fetch_key(parser: ParserState): boolean {
  if (parser.flow_level === 0) {
    if (!parser.simple_key_allowed) {
      return set_scanner_error(parser, '', parser.mark, 'mapping keys are not allowed in this context')
    }
    if (!roll_indent(parser, parser.mark.column, -1, TokenType.BLOCK_MAPPING_START, parser.mark)) return false
  }
  if (!remove_simple_key(parser)) return false
  parser.simple_key_allowed = parser.flow_level === 0
  const start_mark = copyMark(parser.mark)
  skip(parser)
  insertToken(parser, -1, token(TokenType.KEY, start_mark, copyMark(parser.mark)))
  return true
}

function fetch_value(parser: ParserState): boolean {
  const simple_key = parser.simple_keys[parser.simple_keys.length - 1]
  const [valid, ok] = simple_key_is_valid(parser, simple_key)
  if (!ok) return false
  if (valid) {
    insertToken(
      parser,
      simple_key.token_number - parser.tokens_parsed,
      token(TokenType.KEY, copyMark(simple_key.mark), copyMark(simple_key.mark)),
    )
    if (
      !roll_indent(
        parser,
        simple_key.mark.column,
        simple_key.token_number,
        TokenType.BLOCK_MAPPING_START,
        simple_key.mark,
      )
    ) {
      return false
    }
    simple_key.possible = false
    parser.simple_keys_by_tok.delete(simple_key.token_number)
    parser.simple_key_allowed = false
  } else {
    if (parser.flow_level === 0) {
      if (!parser.simple_key_allowed) {
        return set_scanner_error(parser, '', parser.mark, 'mapping values are not allowed in this context')
      }
      if (!roll_indent(parser, parser.mark.column, -1, TokenType.BLOCK_MAPPING_START, parser.mark))
        return false
    }
    parser.simple_key_allowed = parser.flow_level === 0
  }
  const start_mark = copyMark(parser.mark)
  skip(parser)
  insertToken(parser, -1, token(TokenType.VALUE, start_mark, copyMark(parser.mark)))
  return true
}

function fetch_anchor(parser: ParserState, typ: TokenType): boolean {
  if (!save_simple_key(parser)) return false
  parser.simple_key_allowed = false
  const tok = scan_anchor(parser, typ)
  if (tok === null) return false
  insertToken(parser, -1, tok)
  return true
}

function fetch_tag(parser: ParserState): boolean {
  if (!save_simple_key(parser)) return false
  parser.simple_key_allowed = false
  const tok = scan_tag(parser)
  if (tok === null) return false
  insertToken(parser, -1, tok)
  return true
}

function fetch_block_scalar(parser: ParserState, literal: boolean): boolean {
  if (!remove_simple_key(parser)) return false
  parser.simple_key_allowed = true
  const tok = scan_block_scalar(parser, literal)
  if (tok === null) return false
  insertToken(parser, -1, tok)
  return true
}

function fetch_flow_scalar(parser: ParserState, single: boolean): boolean {
  if (!save_simple_key(parser)) return false
  parser.simple_key_allowed = false
  const tok = scan_flow_scalar(parser, single)
  if (tok === null) return false
  insertToken(parser, -1, tok)
  return true
}

function fetch_plain_scalar(parser: ParserState): boolean {
  if (!save_simple_key(parser)) return false
  parser.simple_key_allowed = false
  const tok = scan_plain_scalar(parser)
  if (tok === null) return false
  insertToken(parser, -1, tok)
  return true
}

function scan_to_next_token(parser: ParserState): boolean {
  const scan_mark = copyMark(parser.mark)
  for (;;) {
    if (parser.unread < 1 && !updateBuffer(parser, 1)) return false
    if (parser.mark.column === 0 && is_bom(parser.buffer, parser.buffer_pos)) skip(parser)
    if (parser.unread < 1 && !updateBuffer(parser, 1)) return false
    while (
      parser.buffer[parser.buffer_pos] === 0x20 ||
      ((parser.flow_level > 0 || !parser.simple_key_allowed) && parser.buffer[parser.buffer_pos] === 0x09)
    ) {
      skip(parser)
      if (parser.unread < 1 && !updateBuffer(parser, 1)) return false
    }
    if (parser.comments.length > 0 && parser.tokens.length > 1) {
      const tokenA = lastToken(parser, 2)
      const tokenB = lastToken(parser, 1)
      const c = parser.comments[parser.comments.length - 1]
      if (
        tokenA.typ === TokenType.BLOCK_SEQUENCE_START &&
        tokenB.typ === TokenType.BLOCK_ENTRY &&
        (c.line?.length ?? 0) > 0 &&
        !is_break(parser.buffer, parser.buffer_pos)
      ) {
        c.head = c.line
        c.line = null
        if (c.start_mark.line === parser.mark.line - 1) c.token_mark = copyMark(parser.mark)
      }
    }
    if (parser.buffer[parser.buffer_pos] === 0x23) {
      if (!scan_comments(parser, scan_mark)) return false
    }
    if (is_break(parser.buffer, parser.buffer_pos)) {
      if (parser.unread < 2 && !updateBuffer(parser, 2)) return false
      skip_line(parser)
      if (parser.flow_level === 0) parser.simple_key_allowed = true
    } else {
      break
    }
  }
  return true
}

function scan_directive(parser: ParserState): Token | null {
  const start_mark = copyMark(parser.mark)
  skip(parser)
  const name = scan_directive_name(parser, start_mark)
  if (name === null) return null
  let tok: Token
  if (name === 'YAML') {
    const v = scan_version_directive_value(parser, start_mark)
    if (v === null) return null
    tok = token(TokenType.VERSION_DIRECTIVE, start_mark, copyMark(parser.mark), { major: v[0], minor: v[1] })
  } else if (name === 'TAG') {
    const v = scan_tag_directive_value(parser, start_mark)
    if (v === null) return null
    tok = token(TokenType.TAG_DIRECTIVE, start_mark, copyMark(parser.mark), { value: v[0], prefix: v[1] })
  } else {
    set_scanner_error(parser, 'while scanning a directive', start_mark, 'found unknown directive name')
    return null
  }
  if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
  while (is_blank(parser.buffer, parser.buffer_pos)) {
    skip(parser)
    if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
  }
  if (parser.buffer[parser.buffer_pos] === 0x23) {
    while (!is_breakz(parser.buffer, parser.buffer_pos)) {
      skip(parser)
      if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
    }
  }
  if (!is_breakz(parser.buffer, parser.buffer_pos)) {
    set_scanner_error(
      parser,
      'while scanning a directive',
      start_mark,
      'did not find expected comment or line break',
    )
    return null
  }
  if (is_break(parser.buffer, parser.buffer_pos)) {
    if (parser.unread < 2 && !updateBuffer(parser, 2)) return null
    skip_line(parser)
  }
  return tok
}

function scan_directive_name(parser: ParserState, start_mark: Mark): string | null {
  if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
  let s = ''
  while (is_alpha(parser.buffer, parser.buffer_pos)) {
    s = read(parser, s)
    if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
  }
  if (s.length === 0) {
    set_scanner_error(
      parser,
      'while scanning a directive',
      start_mark,
      'could not find expected directive name',
    )
    return null
  }
  if (!is_blankz(parser.buffer, parser.buffer_pos)) {
    set_scanner_error(
      parser,
      'while scanning a directive',
      start_mark,
      'found unexpected non-alphabetical character',
    )
    return null
  }
  return s
}

function scan_version_directive_value(parser: ParserState, start_mark: Mark): [number, number] | null {
  if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
  while (is_blank(parser.buffer, parser.buffer_pos)) {
    skip(parser)
    if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
  }
  const major = scan_version_directive_number(parser, start_mark)
  if (major === null) return null
  if (parser.buffer[parser.buffer_pos] !== 0x2e) {
    set_scanner_error(
      parser,
      'while scanning a %YAML directive',
      start_mark,
      "did not find expected digit or '.' character",
    )
    return null
  }
  skip(parser)
  const minor = scan_version_directive_number(parser, start_mark)
  if (minor === null) return null
  return [major, minor]
}

const MAX_NUMBER_LENGTH = 2

function scan_version_directive_number(parser: ParserState, start_mark: Mark): number | null {
  if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
  let value = 0
  let length = 0
  while (is_digit(parser.buffer, parser.buffer_pos)) {
    length++
    if (length > MAX_NUMBER_LENGTH) {
      set_scanner_error(
        parser,
        'while scanning a %YAML directive',
        start_mark,
        'found extremely long version number',
      )
      return null
    }
    value = value * 10 + as_digit(parser.buffer, parser.buffer_pos)
    skip(parser)
    if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
  }
  if (length === 0) {
    set_scanner_error(
      parser,
      'while scanning a %YAML directive',
      start_mark,
      'did not find expected version number',
    )
    return null
  }
  return value
}

function scan_tag_directive_value(parser: ParserState, start_mark: Mark): [string, string] | null {
  if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
  while (is_blank(parser.buffer, parser.buffer_pos)) {
    skip(parser)
    if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
  }
  const handle = scan_tag_handle(parser, true, start_mark)
  if (handle === null) return null
  if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
  if (!is_blank(parser.buffer, parser.buffer_pos)) {
    set_scanner_error(
      parser,
      'while scanning a %TAG directive',
      start_mark,
      'did not find expected whitespace',
    )
    return null
  }
  while (is_blank(parser.buffer, parser.buffer_pos)) {
    skip(parser)
    if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
  }
  const prefix = scan_tag_uri(parser, true, null, start_mark)
  if (prefix === null) return null
  if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
  if (!is_blankz(parser.buffer, parser.buffer_pos)) {
    set_scanner_error(
      parser,
      'while scanning a %TAG directive',
      start_mark,
      'did not find expected whitespace or line break',
    )
    return null
  }
  return [handle, prefix]
}

function scan_anchor(parser: ParserState, typ: TokenType): Token | null {
  let s = ''
  const start_mark = copyMark(parser.mark)
  skip(parser)
  if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
  while (is_alpha(parser.buffer, parser.buffer_pos)) {
    s = read(parser, s)
    if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
  }
  const end_mark = copyMark(parser.mark)
  const c = parser.buffer[parser.buffer_pos]
  if (
    s.length === 0 ||
    !(
      is_blankz(parser.buffer, parser.buffer_pos) ||
      c === 0x3f ||
      c === 0x3a ||
      c === 0x2c ||
      c === 0x5d ||
      c === 0x7d ||
      c === 0x25 ||
      c === 0x40 ||
      c === 0x60
    )
  ) {
    const context = typ === TokenType.ANCHOR ? 'while scanning an anchor' : 'while scanning an alias'
    set_scanner_error(parser, context, start_mark, 'did not find expected alphabetic or numeric character')
    return null
  }
  return token(typ, start_mark, end_mark, { value: s })
}

function scan_tag(parser: ParserState): Token | null {
  let handle: string | null = null
  let suffix: string | null = null
  const start_mark = copyMark(parser.mark)
  if (parser.unread < 2 && !updateBuffer(parser, 2)) return null
  if (parser.buffer[parser.buffer_pos + 1] === 0x3c) {
    skip(parser)
    skip(parser)
    suffix = scan_tag_uri(parser, false, null, start_mark)
    if (suffix === null) return null
    if (parser.buffer[parser.buffer_pos] !== 0x3e) {
      set_scanner_error(parser, 'while scanning a tag', start_mark, "did not find the expected '>'")
      return null
    }
    skip(parser)
  } else {
    handle = scan_tag_handle(parser, false, start_mark)
    if (handle === null) return null
    if (handle[0] === '!' && handle.length > 1 && handle[handle.length - 1] === '!') {
      suffix = scan_tag_uri(parser, false, null, start_mark)
      if (suffix === null) return null
    } else {
      suffix = scan_tag_uri(parser, false, handle, start_mark)
      if (suffix === null) return null
      handle = '!'
      if (suffix.length === 0) {
        const t = handle
        handle = suffix
        suffix = t
      }
    }
  }
  if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
  if (!is_blankz(parser.buffer, parser.buffer_pos)) {
    set_scanner_error(
      parser,
      'while scanning a tag',
      start_mark,
      'did not find expected whitespace or line break',
    )
    return null
  }
  return token(TokenType.TAG, start_mark, copyMark(parser.mark), { value: handle, suffix })
}

function scan_tag_handle(parser: ParserState, directive: boolean, start_mark: Mark): string | null {
  if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
  if (parser.buffer[parser.buffer_pos] !== 0x21) {
    set_scanner_tag_error(parser, directive, start_mark, "did not find expected '!'")
    return null
  }
  let s = ''
  s = read(parser, s)
  if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
  while (is_alpha(parser.buffer, parser.buffer_pos)) {
    s = read(parser, s)
    if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
  }
  if (parser.buffer[parser.buffer_pos] === 0x21) {
    s = read(parser, s)
  } else if (directive && s !== '!') {
    set_scanner_tag_error(parser, directive, start_mark, "did not find expected '!'")
    return null
  }
  return s
}

const URI_CHARS = new Set(";/?:@&=+$,.!~*'()[]%".split('').map((c) => c.charCodeAt(0)))

function scan_tag_uri(
  parser: ParserState,
  directive: boolean,
  head: string | null,
  start_mark: Mark,
): string | null {
  let s = ''
  let hasTag = (head?.length ?? 0) > 0
  if (head !== null && head.length > 1) s += head.slice(1)
  if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
  while (is_alpha(parser.buffer, parser.buffer_pos) || URI_CHARS.has(parser.buffer[parser.buffer_pos])) {
    if (parser.buffer[parser.buffer_pos] === 0x25) {
      const r = scan_uri_escapes(parser, directive, start_mark, s)
      if (r === null) return null
      s = r
    } else {
      s = read(parser, s)
    }
    if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
    hasTag = true
  }
  if (!hasTag) {
    set_scanner_tag_error(parser, directive, start_mark, 'did not find expected tag URI')
    return null
  }
  return s
}

function scan_uri_escapes(
  parser: ParserState,
  directive: boolean,
  start_mark: Mark,
  s: string,
): string | null {
  let w = 1024
  while (w > 0) {
    if (parser.unread < 3 && !updateBuffer(parser, 3)) return null
    if (
      !(
        parser.buffer[parser.buffer_pos] === 0x25 &&
        is_hex(parser.buffer, parser.buffer_pos + 1) &&
        is_hex(parser.buffer, parser.buffer_pos + 2)
      )
    ) {
      set_scanner_tag_error(parser, directive, start_mark, 'did not find URI escaped octet')
      return null
    }
    const octet =
      (as_hex(parser.buffer, parser.buffer_pos + 1) << 4) + as_hex(parser.buffer, parser.buffer_pos + 2)
    if (w === 1024) {
      w = width(octet)
      if (w === 0) {
        set_scanner_tag_error(parser, directive, start_mark, 'found an incorrect leading UTF-8 octet')
        return null
      }
    } else if ((octet & 0xc0) !== 0x80) {
      set_scanner_tag_error(parser, directive, start_mark, 'found an incorrect trailing UTF-8 octet')
      return null
    }
    s += chr(octet)
    skip(parser)
    skip(parser)
    skip(parser)
    w--
  }
  return s
}

function scan_block_scalar(parser: ParserState, literal: boolean): Token | null {
  const start_mark = copyMark(parser.mark)
  skip(parser)
  if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
  let chomping = 0
  let increment = 0
  const b = parser.buffer
  if (b[parser.buffer_pos] === 0x2b || b[parser.buffer_pos] === 0x2d) {
    chomping = b[parser.buffer_pos] === 0x2b ? 1 : -1
    skip(parser)
    if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
    if (is_digit(b, parser.buffer_pos)) {
      if (b[parser.buffer_pos] === 0x30) {
        set_scanner_error(
          parser,
          'while scanning a block scalar',
          start_mark,
          'found an indentation indicator equal to 0',
        )
        return null
      }
      increment = as_digit(b, parser.buffer_pos)
      skip(parser)
    }
  } else if (is_digit(b, parser.buffer_pos)) {
    if (b[parser.buffer_pos] === 0x30) {
      set_scanner_error(
        parser,
        'while scanning a block scalar',
        start_mark,
        'found an indentation indicator equal to 0',
      )
      return null
    }
    increment = as_digit(b, parser.buffer_pos)
    skip(parser)
    if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
    if (b[parser.buffer_pos] === 0x2b || b[parser.buffer_pos] === 0x2d) {
      chomping = b[parser.buffer_pos] === 0x2b ? 1 : -1
      skip(parser)
    }
  }
  if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
  while (is_blank(b, parser.buffer_pos)) {
    skip(parser)
    if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
  }
  if (b[parser.buffer_pos] === 0x23) {
    if (!scan_line_comment(parser, start_mark)) return null
    while (!is_breakz(b, parser.buffer_pos)) {
      skip(parser)
      if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
    }
  }
  if (!is_breakz(b, parser.buffer_pos)) {
    set_scanner_error(
      parser,
      'while scanning a block scalar',
      start_mark,
      'did not find expected comment or line break',
    )
    return null
  }
  if (is_break(b, parser.buffer_pos)) {
    if (parser.unread < 2 && !updateBuffer(parser, 2)) return null
    skip_line(parser)
  }
  const end_mark = { v: copyMark(parser.mark) }
  const indent = { v: 0 }
  if (increment > 0) indent.v = parser.indent >= 0 ? parser.indent + increment : increment
  let s = ''
  let leading_break = ''
  const trailing_breaks = { v: '' }
  if (!scan_block_scalar_breaks(parser, indent, trailing_breaks, start_mark, end_mark)) return null
  if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
  let leading_blank = false
  let trailing_blank = false
  while (parser.mark.column === indent.v && !is_z(b, parser.buffer_pos)) {
    trailing_blank = is_blank(b, parser.buffer_pos)
    if (
      !literal &&
      !leading_blank &&
      !trailing_blank &&
      leading_break.length > 0 &&
      leading_break[0] === '\n'
    ) {
      if (trailing_breaks.v.length === 0) s += ' '
    } else {
      s += leading_break
    }
    leading_break = ''
    s += trailing_breaks.v
    trailing_breaks.v = ''
    leading_blank = is_blank(b, parser.buffer_pos)
    while (!is_breakz(b, parser.buffer_pos)) {
      s = read(parser, s)
      if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
    }
    if (parser.unread < 2 && !updateBuffer(parser, 2)) return null
    leading_break = read_line(parser, leading_break)
    if (!scan_block_scalar_breaks(parser, indent, trailing_breaks, start_mark, end_mark)) return null
  }
  if (chomping !== -1) s += leading_break
  if (chomping === 1) s += trailing_breaks.v
  return token(TokenType.SCALAR, start_mark, end_mark.v, {
    value: s,
    style: literal ? ScalarStyle.LITERAL : ScalarStyle.FOLDED,
  })
}

function scan_block_scalar_breaks(
  parser: ParserState,
  indent: { v: number },
  breaks: { v: string },
  start_mark: Mark,
  end_mark: { v: Mark },
): boolean {
  end_mark.v = copyMark(parser.mark)
  let max_indent = 0
  const b = parser.buffer
  for (;;) {
    if (parser.unread < 1 && !updateBuffer(parser, 1)) return false
    while ((indent.v === 0 || parser.mark.column < indent.v) && is_space(b, parser.buffer_pos)) {
      skip(parser)
      if (parser.unread < 1 && !updateBuffer(parser, 1)) return false
    }
    if (parser.mark.column > max_indent) max_indent = parser.mark.column
    if ((indent.v === 0 || parser.mark.column < indent.v) && is_tab(b, parser.buffer_pos)) {
      return set_scanner_error(
        parser,
        'while scanning a block scalar',
        start_mark,
        'found a tab character where an indentation space is expected',
      )
    }
    if (!is_break(b, parser.buffer_pos)) break
    if (parser.unread < 2 && !updateBuffer(parser, 2)) return false
    breaks.v = read_line(parser, breaks.v)
    end_mark.v = copyMark(parser.mark)
  }
  if (indent.v === 0) {
    indent.v = max_indent
    if (indent.v < parser.indent + 1) indent.v = parser.indent + 1
    if (indent.v < 1) indent.v = 1
  }
  return true
}

const ESCAPES: Record<number, string> = {
  48: '\x00',
  97: '\x07',
  98: '\x08',
  116: '\x09',
  9: '\x09',
  110: '\x0a',
  118: '\x0b',
  102: '\x0c',
  114: '\x0d',
  101: '\x1b',
  32: ' ',
  34: '"',
  39: "'",
  92: '\\',
  78: '\xc2\x85',
  95: '\xc2\xa0',
  76: '\xe2\x80\xa8',
  80: '\xe2\x80\xa9',
}

function utf8(value: number): string {
  if (value <= 0x7f) return chr(value)
  if (value <= 0x7ff) return chr(0xc0 + (value >> 6), 0x80 + (value & 0x3f))
  if (value <= 0xffff) return chr(0xe0 + (value >> 12), 0x80 + ((value >> 6) & 0x3f), 0x80 + (value & 0x3f))
  return chr(
    0xf0 + (value >> 18),
    0x80 + ((value >> 12) & 0x3f),
    0x80 + ((value >> 6) & 0x3f),
    0x80 + (value & 0x3f),
  )
}

function scan_flow_scalar(parser: ParserState, single: boolean): Token | null {
  const start_mark = copyMark(parser.mark)
  skip(parser)
  let s = ''
  let leading_break = ''
  let trailing_breaks = ''
  let whitespaces = ''
  const b = parser.buffer
  for (;;) {
    if (parser.unread < 4 && !updateBuffer(parser, 4)) return null
    const p = parser.buffer_pos
    if (
      parser.mark.column === 0 &&
      ((b[p] === 0x2d && b[p + 1] === 0x2d && b[p + 2] === 0x2d) ||
        (b[p] === 0x2e && b[p + 1] === 0x2e && b[p + 2] === 0x2e)) &&
      is_blankz(b, p + 3)
    ) {
      set_scanner_error(
        parser,
        'while scanning a quoted scalar',
        start_mark,
        'found unexpected document indicator',
      )
      return null
    }
    if (is_z(b, p)) {
      set_scanner_error(
        parser,
        'while scanning a quoted scalar',
        start_mark,
        'found unexpected end of stream',
      )
      return null
    }
    let leading_blanks = false
    while (!is_blankz(b, parser.buffer_pos)) {
      const q = parser.buffer_pos
      if (single && b[q] === 0x27 && b[q + 1] === 0x27) {
        s += "'"
        skip(parser)
        skip(parser)
      } else if (single && b[q] === 0x27) {
        break
      } else if (!single && b[q] === 0x22) {
        break
      } else if (!single && b[q] === 0x5c && is_break(b, q + 1)) {
        if (parser.unread < 3 && !updateBuffer(parser, 3)) return null
        skip(parser)
        skip_line(parser)
        leading_blanks = true
        break
      } else if (!single && b[q] === 0x5c) {
        let code_length = 0
        const e = b[q + 1]
        if (e === 0x78) code_length = 2
        else if (e === 0x75) code_length = 4
        else if (e === 0x55) code_length = 8
        else if (ESCAPES[e] !== undefined) s += ESCAPES[e]
        else {
          set_scanner_error(
            parser,
            'while parsing a quoted scalar',
            start_mark,
            'found unknown escape character',
          )
          return null
        }
        skip(parser)
        skip(parser)
        if (code_length > 0) {
          let value = 0
          if (parser.unread < code_length && !updateBuffer(parser, code_length)) return null
          for (let k = 0; k < code_length; k++) {
            if (!is_hex(b, parser.buffer_pos + k)) {
              set_scanner_error(
                parser,
                'while parsing a quoted scalar',
                start_mark,
                'did not find expected hexdecimal number',
              )
              return null
            }
            value = value * 16 + as_hex(b, parser.buffer_pos + k)
          }
          if ((value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff) {
            set_scanner_error(
              parser,
              'while parsing a quoted scalar',
              start_mark,
              'found invalid Unicode character escape code',
            )
            return null
          }
          s += utf8(value)
          for (let k = 0; k < code_length; k++) skip(parser)
        }
      } else {
        s = read(parser, s)
      }
      if (parser.unread < 2 && !updateBuffer(parser, 2)) return null
    }
    if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
    if (single) {
      if (b[parser.buffer_pos] === 0x27) break
    } else if (b[parser.buffer_pos] === 0x22) break
    while (is_blank(b, parser.buffer_pos) || is_break(b, parser.buffer_pos)) {
      if (is_blank(b, parser.buffer_pos)) {
        if (!leading_blanks) whitespaces = read(parser, whitespaces)
        else skip(parser)
      } else {
        if (parser.unread < 2 && !updateBuffer(parser, 2)) return null
        if (!leading_blanks) {
          whitespaces = ''
          leading_break = read_line(parser, leading_break)
          leading_blanks = true
        } else {
          trailing_breaks = read_line(parser, trailing_breaks)
        }
      }
      if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
    }
    if (leading_blanks) {
      if (leading_break.length > 0 && leading_break[0] === '\n') {
        if (trailing_breaks.length === 0) s += ' '
        else s += trailing_breaks
      } else {
        s += leading_break
        s += trailing_breaks
      }
      trailing_breaks = ''
      leading_break = ''
    } else {
      s += whitespaces
      whitespaces = ''
    }
  }
  skip(parser)
  return token(TokenType.SCALAR, start_mark, copyMark(parser.mark), {
    value: s,
    style: single ? ScalarStyle.SINGLE_QUOTED : ScalarStyle.DOUBLE_QUOTED,
  })
}

function scan_plain_scalar(parser: ParserState): Token | null {
  let s = ''
  let leading_break = ''
  let trailing_breaks = ''
  let whitespaces = ''
  let leading_blanks = false
  const indent = parser.indent + 1
  const start_mark = copyMark(parser.mark)
  let end_mark = copyMark(parser.mark)
  const b = parser.buffer
  for (;;) {
    if (parser.unread < 4 && !updateBuffer(parser, 4)) return null
    const p = parser.buffer_pos
    if (
      parser.mark.column === 0 &&
      ((b[p] === 0x2d && b[p + 1] === 0x2d && b[p + 2] === 0x2d) ||
        (b[p] === 0x2e && b[p + 1] === 0x2e && b[p + 2] === 0x2e)) &&
      is_blankz(b, p + 3)
    ) {
      break
    }
    if (b[p] === 0x23) break
    while (!is_blankz(b, parser.buffer_pos)) {
      const q = parser.buffer_pos
      const c = b[q]
      if (
        (c === 0x3a && is_blankz(b, q + 1)) ||
        (parser.flow_level > 0 &&
          (c === 0x2c || c === 0x3f || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d))
      ) {
        break
      }
      if (leading_blanks || whitespaces.length > 0) {
        if (leading_blanks) {
          if (leading_break[0] === '\n') {
            if (trailing_breaks.length === 0) s += ' '
            else s += trailing_breaks
          } else {
            s += leading_break
            s += trailing_breaks
          }
          trailing_breaks = ''
          leading_break = ''
          leading_blanks = false
        } else {
          s += whitespaces
          whitespaces = ''
        }
      }
      s = read(parser, s)
      end_mark = copyMark(parser.mark)
      if (parser.unread < 2 && !updateBuffer(parser, 2)) return null
    }
    if (!(is_blank(b, parser.buffer_pos) || is_break(b, parser.buffer_pos))) break
    if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
    while (is_blank(b, parser.buffer_pos) || is_break(b, parser.buffer_pos)) {
      if (is_blank(b, parser.buffer_pos)) {
        if (leading_blanks && parser.mark.column < indent && is_tab(b, parser.buffer_pos)) {
          set_scanner_error(
            parser,
            'while scanning a plain scalar',
            start_mark,
            'found a tab character that violates indentation',
          )
          return null
        }
        if (!leading_blanks) whitespaces = read(parser, whitespaces)
        else skip(parser)
      } else {
        if (parser.unread < 2 && !updateBuffer(parser, 2)) return null
        if (!leading_blanks) {
          whitespaces = ''
          leading_break = read_line(parser, leading_break)
          leading_blanks = true
        } else {
          trailing_breaks = read_line(parser, trailing_breaks)
        }
      }
      if (parser.unread < 1 && !updateBuffer(parser, 1)) return null
    }
    if (parser.flow_level === 0 && parser.mark.column < indent) break
  }
  const tok = token(TokenType.SCALAR, start_mark, end_mark, { value: s, style: ScalarStyle.PLAIN })
  if (leading_blanks) parser.simple_key_allowed = true
  return tok
}

function scan_line_comment(parser: ParserState, token_mark: Mark): boolean {
  if (parser.newlines > 0) return true
  let start_mark = { index: 0, line: 0, column: 0 }
  let text = ''
  for (let peek = 0; peek < 512; peek++) {
    if (parser.unread < peek + 1 && !updateBuffer(parser, peek + 1)) break
    if (is_blank(parser.buffer, parser.buffer_pos + peek)) continue
    if (parser.buffer[parser.buffer_pos + peek] === 0x23) {
      const seen = parser.mark.index + peek
      for (;;) {
        if (parser.unread < 1 && !updateBuffer(parser, 1)) return false
        if (is_breakz(parser.buffer, parser.buffer_pos)) {
          if (parser.mark.index >= seen) break
          if (parser.unread < 2 && !updateBuffer(parser, 2)) return false
          skip_line(parser)
        } else if (parser.mark.index >= seen) {
          if (text.length === 0) start_mark = copyMark(parser.mark)
          text = read(parser, text)
        } else {
          skip(parser)
        }
      }
    }
    break
  }
  if (text.length > 0) {
    parser.comments.push(comment({ token_mark: copyMark(token_mark), start_mark, line: text }))
  }
  return true
}

function scan_comments(parser: ParserState, scan_mark_in: Mark): boolean {
  let scan_mark = copyMark(scan_mark_in)
  let tok = lastToken(parser)
  if (tok.typ === TokenType.FLOW_ENTRY && parser.tokens.length > 1) tok = lastToken(parser, 2)
  let token_mark = copyMark(tok.start_mark)
  let start_mark = { index: 0, line: 0, column: 0 }
  let next_indent = parser.indent
  if (next_indent < 0) next_indent = 0
  let recent_empty = false
  let first_empty = parser.newlines <= 1
  let line = parser.mark.line
  let column = parser.mark.column
  let text = ''
  let foot_line = -1
  if (scan_mark.line > 0) {
    foot_line = parser.mark.line - parser.newlines + 1
    if (parser.newlines === 0 && parser.mark.column > 1) foot_line++
  }
  const push = (c: Partial<Comment>) => parser.comments.push(comment(c))
  let peek = 0
  for (; peek < 512; peek++) {
    if (parser.unread < peek + 1 && !updateBuffer(parser, peek + 1)) break
    column++
    if (is_blank(parser.buffer, parser.buffer_pos + peek)) continue
    const c = parser.buffer[parser.buffer_pos + peek]
    const close_flow = parser.flow_level > 0 && (c === 0x5d || c === 0x7d)
    if (close_flow || is_breakz(parser.buffer, parser.buffer_pos + peek)) {
      if (close_flow || !recent_empty) {
        if (
          close_flow ||
          (first_empty &&
            ((start_mark.line === foot_line && tok.typ !== TokenType.VALUE) ||
              start_mark.column - 1 < next_indent))
        ) {
          if (text.length > 0) {
            if (start_mark.column - 1 < next_indent) token_mark = copyMark(start_mark)
            const end = { index: parser.mark.index + peek, line, column }
            push({ scan_mark, token_mark, start_mark, end_mark: end, foot: text })
            scan_mark = { index: parser.mark.index + peek, line, column }
            token_mark = copyMark(scan_mark)
            text = ''
          }
        } else if (text.length > 0 && parser.buffer[parser.buffer_pos + peek] !== 0) {
          text += '\n'
        }
      }
      if (!is_break(parser.buffer, parser.buffer_pos + peek)) break
      first_empty = false
      recent_empty = true
      column = 0
      line++
      continue
    }
    if (text.length > 0 && (close_flow || (column - 1 < next_indent && column !== start_mark.column))) {
      const end = { index: parser.mark.index + peek, line, column }
      push({ scan_mark, token_mark, start_mark, end_mark: end, foot: text })
      scan_mark = { index: parser.mark.index + peek, line, column }
      token_mark = copyMark(scan_mark)
      text = ''
    }
    if (parser.buffer[parser.buffer_pos + peek] !== 0x23) break
    if (text.length === 0) start_mark = { index: parser.mark.index + peek, line, column }
    else text += '\n'
    recent_empty = false
    const seen = parser.mark.index + peek
    for (;;) {
      if (parser.unread < 1 && !updateBuffer(parser, 1)) return false
      if (is_breakz(parser.buffer, parser.buffer_pos)) {
        if (parser.mark.index >= seen) break
        if (parser.unread < 2 && !updateBuffer(parser, 2)) return false
        skip_line(parser)
      } else if (parser.mark.index >= seen) {
        text = read(parser, text)
      } else {
        skip(parser)
      }
    }
    peek = 0
    column = 0
    line = parser.mark.line
    next_indent = parser.indent
    if (next_indent < 0) next_indent = 0
  }
  if (text.length > 0) {
    push({
      scan_mark,
      token_mark: copyMark(start_mark),
      start_mark,
      end_mark: { index: parser.mark.index + peek - 1, line, column },
      head: text,
    })
  }
  return true
}
