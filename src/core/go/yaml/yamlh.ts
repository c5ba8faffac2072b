/**
 * gopkg.in/yaml.v3 (v3.0.1) yamlh.go and yamlprivateh.go: the parser's state, its tokens,
 * events and marks, and the character classes, as the scanner and parser below use them.
 * Byte strings throughout (see gostring.ts); the working buffers are byte arrays.
 */

export interface Mark {
  /** Characters (not bytes) since the start, after a BOM. */
  index: number
  /** 0-based line. */
  line: number
  /** 0-based column, in characters. */
  column: number
}

export const mark = (index = 0, line = 0, column = 0): Mark => ({ index, line, column })
export const copyMark = (m: Mark): Mark => ({ index: m.index, line: m.line, column: m.column })

export enum TokenType {
  NO,
  STREAM_START,
  STREAM_END,
  VERSION_DIRECTIVE,
  TAG_DIRECTIVE,
  DOCUMENT_START,
  DOCUMENT_END,
  BLOCK_SEQUENCE_START,
  BLOCK_MAPPING_START,
  BLOCK_END,
  FLOW_SEQUENCE_START,
  FLOW_SEQUENCE_END,
  FLOW_MAPPING_START,
  FLOW_MAPPING_END,
  BLOCK_ENTRY,
  FLOW_ENTRY,
  KEY,
  VALUE,
  ALIAS,
  ANCHOR,
  TAG,
  SCALAR,
}

/** yaml_scalar_style_t (bit flags, as yaml.v3 declares them). */
export enum ScalarStyle {
  PLAIN = 2,
  SINGLE_QUOTED = 4,
  DOUBLE_QUOTED = 8,
  LITERAL = 16,
  FOLDED = 32,
}

export enum CollectionStyle {
  BLOCK = 1,
  FLOW = 2,
}

export interface Token {
  typ: TokenType
  start_mark: Mark
  end_mark: Mark
  /** Anchor/alias name, scalar value, tag handle, %TAG handle (null: Go's nil). */
  value: string | null
  /** Tag suffix. */
  suffix: string | null
  /** %TAG prefix. */
  prefix: string | null
  style: number
  major: number
  minor: number
}

export function token(typ: TokenType, start: Mark, end: Mark, extra: Partial<Token> = {}): Token {
  return {
    typ,
    start_mark: start,
    end_mark: end,
    value: null,
    suffix: null,
    prefix: null,
    style: 0,
    major: 0,
    minor: 0,
    ...extra,
  }
}

export enum EventType {
  NO,
  STREAM_START,
  STREAM_END,
  DOCUMENT_START,
  DOCUMENT_END,
  ALIAS,
  SCALAR,
  SEQUENCE_START,
  SEQUENCE_END,
  MAPPING_START,
  MAPPING_END,
  TAIL_COMMENT,
}

const EVENT_STRINGS = [
  'none',
  'stream start',
  'stream end',
  'document start',
  'document end',
  'alias',
  'scalar',
  'sequence start',
  'sequence end',
  'mapping start',
  'mapping end',
  'tail comment',
]

export function eventString(e: EventType): string {
  return EVENT_STRINGS[e] ?? `unknown event ${e}`
}

export interface Event {
  typ: EventType
  start_mark: Mark
  end_mark: Mark
  anchor: string | null
  tag: string | null
  value: string | null
  implicit: boolean
  quoted_implicit: boolean
  style: number
  head_comment: string | null
  line_comment: string | null
  foot_comment: string | null
}

export function event(typ: EventType, start: Mark, end: Mark, extra: Partial<Event> = {}): Event {
  return {
    typ,
    start_mark: start,
    end_mark: end,
    anchor: null,
    tag: null,
    value: null,
    implicit: false,
    quoted_implicit: false,
    style: 0,
    head_comment: null,
    line_comment: null,
    foot_comment: null,
    ...extra,
  }
}

export enum ErrorType {
  NO,
  READER,
  SCANNER,
  PARSER,
}

export enum Encoding {
  ANY,
  UTF8,
  UTF16LE,
  UTF16BE,
}

export enum State {
  STREAM_START,
  IMPLICIT_DOCUMENT_START,
  DOCUMENT_START,
  DOCUMENT_CONTENT,
  DOCUMENT_END,
  BLOCK_NODE,
  BLOCK_NODE_OR_INDENTLESS_SEQUENCE,
  FLOW_NODE,
  BLOCK_SEQUENCE_FIRST_ENTRY,
  BLOCK_SEQUENCE_ENTRY,
  INDENTLESS_SEQUENCE_ENTRY,
  BLOCK_MAPPING_FIRST_KEY,
  BLOCK_MAPPING_KEY,
  BLOCK_MAPPING_VALUE,
  FLOW_SEQUENCE_FIRST_ENTRY,
  FLOW_SEQUENCE_ENTRY,
  FLOW_SEQUENCE_ENTRY_MAPPING_KEY,
  FLOW_SEQUENCE_ENTRY_MAPPING_VALUE,
  FLOW_SEQUENCE_ENTRY_MAPPING_END,
  FLOW_MAPPING_FIRST_KEY,
  FLOW_MAPPING_KEY,
  FLOW_MAPPING_VALUE,
  FLOW_MAPPING_EMPTY_VALUE,
  END,
}

export interface SimpleKey {
  possible: boolean
  required: boolean
  token_number: number
  mark: Mark
}

export interface Comment {
  scan_mark: Mark
  token_mark: Mark
  start_mark: Mark
  end_mark: Mark
  head: string | null
  line: string | null
  foot: string | null
}

export function comment(extra: Partial<Comment>): Comment {
  return {
    scan_mark: mark(),
    token_mark: mark(),
    start_mark: mark(),
    end_mark: mark(),
    head: null,
    line: null,
    foot: null,
    ...extra,
  }
}

export interface TagDirective {
  handle: string
  prefix: string
}

/** input_raw_buffer_size, input_buffer_size */
export const INPUT_RAW_BUFFER_SIZE = 512
export const INPUT_BUFFER_SIZE = INPUT_RAW_BUFFER_SIZE * 3

/** yaml_parser_t, with the fields the string reader, scanner and parser use. */
export class ParserState {
  error: ErrorType = ErrorType.NO
  problem = ''
  problem_offset = 0
  problem_value = 0
  problem_mark: Mark = mark()
  context = ''
  context_mark: Mark = mark()

  input: string
  input_pos = 0
  eof = false

  /** The working buffer (cap input_buffer_size) and its Go length. */
  buffer = new Uint8Array(INPUT_BUFFER_SIZE + 8)
  buffer_len = 0
  buffer_pos = 0
  unread = 0
  newlines = 0

  raw_buffer = new Uint8Array(INPUT_RAW_BUFFER_SIZE)
  raw_buffer_len = 0
  raw_buffer_pos = 0

  encoding: Encoding = Encoding.ANY
  offset = 0
  mark: Mark = mark()

  head_comment: string | null = null
  line_comment: string | null = null
  foot_comment: string | null = null
  tail_comment: string | null = null
  stem_comment: string | null = null

  comments: Comment[] = []
  comments_head = 0

  stream_start_produced = false
  stream_end_produced = false
  flow_level = 0

  /** The token queue; `tokens_cap` follows Go's append growth, which decides when it is compacted. */
  tokens: Token[] = []
  tokens_cap = 0
  tokens_head = 0
  tokens_parsed = 0
  token_available = false

  indent = 0
  indents: number[] = []

  simple_key_allowed = false
  simple_keys: SimpleKey[] = []
  simple_keys_by_tok = new Map<number, number>()

  state: State = State.STREAM_START
  states: State[] = []
  marks: Mark[] = []
  tag_directives: TagDirective[] = []

  constructor(input: string) {
    this.input = input
  }
}

// yamlprivateh.go: the character classes, on the working buffer.

export const is_alpha = (b: Uint8Array, i: number): boolean => {
  const c = b[i]
  return (
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x61 && c <= 0x7a) ||
    c === 0x5f ||
    c === 0x2d
  )
}
export const is_digit = (b: Uint8Array, i: number): boolean => b[i] >= 0x30 && b[i] <= 0x39
export const as_digit = (b: Uint8Array, i: number): number => b[i] - 0x30
export const is_hex = (b: Uint8Array, i: number): boolean => {
  const c = b[i]
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
}
export const as_hex = (b: Uint8Array, i: number): number => {
  const c = b[i]
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10
  return c - 0x30
}
export const is_z = (b: Uint8Array, i: number): boolean => b[i] === 0
/** is_bom looks at the start of the buffer, not at i (as yaml.v3 does). */
export const is_bom = (b: Uint8Array, _i: number): boolean => b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf
export const is_space = (b: Uint8Array, i: number): boolean => b[i] === 0x20
export const is_tab = (b: Uint8Array, i: number): boolean => b[i] === 0x09
export const is_blank = (b: Uint8Array, i: number): boolean => b[i] === 0x20 || b[i] === 0x09
export const is_break = (b: Uint8Array, i: number): boolean =>
  b[i] === 0x0d ||
  b[i] === 0x0a ||
  (b[i] === 0xc2 && b[i + 1] === 0x85) ||
  (b[i] === 0xe2 && b[i + 1] === 0x80 && b[i + 2] === 0xa8) ||
  (b[i] === 0xe2 && b[i + 1] === 0x80 && b[i + 2] === 0xa9)
export const is_crlf = (b: Uint8Array, i: number): boolean => b[i] === 0x0d && b[i + 1] === 0x0a
export const is_breakz = (b: Uint8Array, i: number): boolean => is_break(b, i) || b[i] === 0
export const is_blankz = (b: Uint8Array, i: number): boolean => is_blank(b, i) || is_breakz(b, i)

export function width(b: number): number {
  if ((b & 0x80) === 0x00) return 1
  if ((b & 0xe0) === 0xc0) return 2
  if ((b & 0xf0) === 0xe0) return 3
  if ((b & 0xf8) === 0xf0) return 4
  return 0
}

/**
 * The capacities Go 1.19's append gives a []yaml_token_t (144-byte elements) as it grows (measured;
 * Go 1.22+ adds a malloc header, e.g. 18 instead of 16). Only the comment heuristics look at the
 * queue's length, so this decides which comment a token gets, not what parses.
 */
const TOKEN_CAPS = [
  1, 2, 4, 8, 16, 33, 67, 142, 284, 568, 910, 1365, 1934, 2616, 3470, 4551, 5916, 7623, 9728, 12401, 15701,
  19854, 25031, 31516, 39594, 49720, 62350, 78165, 97905, 122595, 153486, 192056, 240298, 300600, 375978,
  470186, 587946, 735175, 919210, 1149212, 1436728, 1796152, 2245404, 2806954, 3508906,
]

export function growTokenCap(cap: number): number {
  for (const c of TOKEN_CAPS) if (c > cap) return c
  // Beyond the table: growslice's 1.25x step, rounded up to whole 8 KiB pages.
  const n = cap + Math.floor((cap + 3 * 256) / 4)
  return Math.floor((Math.ceil((n * 144) / 8192) * 8192) / 144)
}

/** yaml_insert_token (apic.go): pos < 0 appends, otherwise inserts at tokens_head+pos. */
export function insertToken(parser: ParserState, pos: number, tok: Token): void {
  if (parser.tokens_head > 0 && parser.tokens.length === parser.tokens_cap) {
    parser.tokens = parser.tokens.slice(parser.tokens_head)
    parser.tokens_head = 0
  }
  if (parser.tokens.length === parser.tokens_cap) parser.tokens_cap = growTokenCap(parser.tokens_cap)
  if (pos < 0) {
    parser.tokens.push(tok)
    return
  }
  parser.tokens.splice(parser.tokens_head + pos, 0, tok)
}
