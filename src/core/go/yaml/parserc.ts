/**
 * gopkg.in/yaml.v3 (v3.0.1) parserc.go: the event state machine over the scanner's tokens,
 * with its errors (texts and marks) and the comment bookkeeping that can make it peek ahead.
 * A line-by-line port: the names are yaml.v3's.
 */
import { fetch_more_tokens } from './scannerc.js'
import {
  CollectionStyle,
  copyMark,
  ErrorType,
  type Event,
  EventType,
  event,
  type Mark,
  type ParserState,
  ScalarStyle,
  State,
  type TagDirective,
  type Token,
  TokenType,
} from './yamlh.js'

function peek_token(parser: ParserState): Token | null {
  if (parser.token_available || fetch_more_tokens(parser)) {
    const tok = parser.tokens[parser.tokens_head]
    unfold_comments(parser, tok)
    return tok
  }
  return null
}

const append = (a: string | null, b: string): string => (a !== null && a.length > 0 ? `${a}\n${b}` : b)

function unfold_comments(parser: ParserState, tok: Token): void {
  while (
    parser.comments_head < parser.comments.length &&
    tok.start_mark.index >= parser.comments[parser.comments_head].token_mark.index
  ) {
    const c = parser.comments[parser.comments_head]
    if (c.head !== null && c.head.length > 0) {
      if (tok.typ === TokenType.BLOCK_END) break
      parser.head_comment = append(parser.head_comment, c.head)
    }
    if (c.foot !== null && c.foot.length > 0) parser.foot_comment = append(parser.foot_comment, c.foot)
    if (c.line !== null && c.line.length > 0) parser.line_comment = append(parser.line_comment, c.line)
    parser.comments[parser.comments_head] = {
      scan_mark: { index: 0, line: 0, column: 0 },
      token_mark: { index: 0, line: 0, column: 0 },
      start_mark: { index: 0, line: 0, column: 0 },
      end_mark: { index: 0, line: 0, column: 0 },
      head: null,
      line: null,
      foot: null,
    }
    parser.comments_head++
  }
}

function skip_token(parser: ParserState): void {
  parser.token_available = false
  parser.tokens_parsed++
  parser.stream_end_produced = parser.tokens[parser.tokens_head].typ === TokenType.STREAM_END
  parser.tokens_head++
}

/** yaml_parser_parse: the next event, or null on an error (then parser.error is set). */
export function parse(parser: ParserState): Event | null {
  if (parser.stream_end_produced || parser.error !== ErrorType.NO || parser.state === State.END) {
    return event(EventType.NO, { index: 0, line: 0, column: 0 }, { index: 0, line: 0, column: 0 })
  }
  return state_machine(parser)
}

function set_parser_error(parser: ParserState, problem: string, problem_mark: Mark): null {
  parser.error = ErrorType.PARSER
  parser.problem = problem
  parser.problem_mark = copyMark(problem_mark)
  return null
}

function set_parser_error_context(
  parser: ParserState,
  context: string,
  context_mark: Mark,
  problem: string,
  problem_mark: Mark,
): null {
  parser.error = ErrorType.PARSER
  parser.context = context
  parser.context_mark = copyMark(context_mark)
  parser.problem = problem
  parser.problem_mark = copyMark(problem_mark)
  return null
}

type R = Event | null

function state_machine(parser: ParserState): R {
  switch (parser.state) {
    case State.STREAM_START:
      return parse_stream_start(parser)
    case State.IMPLICIT_DOCUMENT_START:
      return parse_document_start(parser, true)
    case State.DOCUMENT_START:
      return parse_document_start(parser, false)
    case State.DOCUMENT_CONTENT:
      return parse_document_content(parser)
    case State.DOCUMENT_END:
      return parse_document_end(parser)
    case State.BLOCK_NODE:
      return parse_node(parser, true, false)
    case State.BLOCK_NODE_OR_INDENTLESS_SEQUENCE:
      return parse_node(parser, true, true)
    case State.FLOW_NODE:
      return parse_node(parser, false, false)
    case State.BLOCK_SEQUENCE_FIRST_ENTRY:
      return parse_block_sequence_entry(parser, true)
    case State.BLOCK_SEQUENCE_ENTRY:
      return parse_block_sequence_entry(parser, false)
    case State.INDENTLESS_SEQUENCE_ENTRY:
      return parse_indentless_sequence_entry(parser)
    case State.BLOCK_MAPPING_FIRST_KEY:
      return parse_block_mapping_key(parser, true)
    case State.BLOCK_MAPPING_KEY:
      return parse_block_mapping_key(parser, false)
    case State.BLOCK_MAPPING_VALUE:
      return parse_block_mapping_value(parser)
    case State.FLOW_SEQUENCE_FIRST_ENTRY:
      return parse_flow_sequence_entry(parser, true)
    case State.FLOW_SEQUENCE_ENTRY:
      return parse_flow_sequence_entry(parser, false)
    case State.FLOW_SEQUENCE_ENTRY_MAPPING_KEY:
      return parse_flow_sequence_entry_mapping_key(parser)
    case State.FLOW_SEQUENCE_ENTRY_MAPPING_VALUE:
      return parse_flow_sequence_entry_mapping_value(parser)
    case State.FLOW_SEQUENCE_ENTRY_MAPPING_END:
      return parse_flow_sequence_entry_mapping_end(parser)
    case State.FLOW_MAPPING_FIRST_KEY:
      return parse_flow_mapping_key(parser, true)
    case State.FLOW_MAPPING_KEY:
      return parse_flow_mapping_key(parser, false)
    case State.FLOW_MAPPING_VALUE:
      return parse_flow_mapping_value(parser, false)
    case State.FLOW_MAPPING_EMPTY_VALUE:
      return parse_flow_mapping_value(parser, true)
    default:
      throw new Error('invalid parser state')
  }
}

function popState(parser: ParserState): void {
  parser.state = parser.states.pop() as State
}

function parse_stream_start(parser: ParserState): R {
  const tok = peek_token(parser)
  if (tok === null) return null
  if (tok.typ !== TokenType.STREAM_START) {
    return set_parser_error(parser, 'did not find expected <stream-start>', tok.start_mark)
  }
  parser.state = State.IMPLICIT_DOCUMENT_START
  const e = event(EventType.STREAM_START, tok.start_mark, tok.end_mark)
  skip_token(parser)
  return e
}

function parse_document_start(parser: ParserState, implicit: boolean): R {
  let tok = peek_token(parser)
  if (tok === null) return null
  if (!implicit) {
    while (tok.typ === TokenType.DOCUMENT_END) {
      skip_token(parser)
      tok = peek_token(parser)
      if (tok === null) return null
    }
  }
  if (
    implicit &&
    tok.typ !== TokenType.VERSION_DIRECTIVE &&
    tok.typ !== TokenType.TAG_DIRECTIVE &&
    tok.typ !== TokenType.DOCUMENT_START &&
    tok.typ !== TokenType.STREAM_END
  ) {
    if (!process_directives(parser)) return null
    parser.states.push(State.DOCUMENT_END)
    parser.state = State.BLOCK_NODE
    let head_comment: string | null = null
    const hc = parser.head_comment
    if (hc !== null && hc.length > 0) {
      for (let i = hc.length - 1; i > 0; i--) {
        if (hc[i] === '\n') {
          if (i === hc.length - 1) {
            head_comment = hc.slice(0, i)
            parser.head_comment = hc.slice(i + 1)
            break
          } else if (hc[i - 1] === '\n') {
            head_comment = hc.slice(0, i - 1)
            parser.head_comment = hc.slice(i + 1)
            break
          }
        }
      }
    }
    return event(EventType.DOCUMENT_START, tok.start_mark, tok.end_mark, { head_comment })
  }
  if (tok.typ !== TokenType.STREAM_END) {
    const start_mark = tok.start_mark
    if (!process_directives(parser)) return null
    tok = peek_token(parser)
    if (tok === null) return null
    if (tok.typ !== TokenType.DOCUMENT_START) {
      return set_parser_error(parser, 'did not find expected <document start>', tok.start_mark)
    }
    parser.states.push(State.DOCUMENT_END)
    parser.state = State.DOCUMENT_CONTENT
    const e = event(EventType.DOCUMENT_START, start_mark, tok.end_mark)
    skip_token(parser)
    return e
  }
  parser.state = State.END
  const e = event(EventType.STREAM_END, tok.start_mark, tok.end_mark)
  skip_token(parser)
  return e
}

function parse_document_content(parser: ParserState): R {
  const tok = peek_token(parser)
  if (tok === null) return null
  if (
    tok.typ === TokenType.VERSION_DIRECTIVE ||
    tok.typ === TokenType.TAG_DIRECTIVE ||
    tok.typ === TokenType.DOCUMENT_START ||
    tok.typ === TokenType.DOCUMENT_END ||
    tok.typ === TokenType.STREAM_END
  ) {
    popState(parser)
    return process_empty_scalar(tok.start_mark)
  }
  return parse_node(parser, true, false)
}

function parse_document_end(parser: ParserState): R {
  const tok = peek_token(parser)
  if (tok === null) return null
  const start_mark = tok.start_mark
  let end_mark = tok.start_mark
  let implicit = true
  if (tok.typ === TokenType.DOCUMENT_END) {
    end_mark = tok.end_mark
    skip_token(parser)
    implicit = false
  }
  parser.tag_directives = []
  parser.state = State.DOCUMENT_START
  const e = event(EventType.DOCUMENT_END, start_mark, end_mark, { implicit })
  set_event_comments(parser, e)
  if (e.head_comment !== null && e.head_comment.length > 0 && (e.foot_comment?.length ?? 0) === 0) {
    e.foot_comment = e.head_comment
    e.head_comment = null
  }
  return e
}

function set_event_comments(parser: ParserState, e: Event): void {
  e.head_comment = parser.head_comment
  e.line_comment = parser.line_comment
  e.foot_comment = parser.foot_comment
  parser.head_comment = null
  parser.line_comment = null
  parser.foot_comment = null
  parser.tail_comment = null
  parser.stem_comment = null
}

function parse_node(parser: ParserState, block: boolean, indentless_sequence: boolean): R {
  let tok = peek_token(parser)
  if (tok === null) return null
  if (tok.typ === TokenType.ALIAS) {
    popState(parser)
    const e = event(EventType.ALIAS, tok.start_mark, tok.end_mark, { anchor: tok.value })
    set_event_comments(parser, e)
    skip_token(parser)
    return e
  }
  let start_mark = tok.start_mark
  let end_mark = tok.start_mark
  let tag_token = false
  let tag_handle: string | null = null
  let tag_suffix: string | null = null
  let anchor: string | null = null
  let tag_mark: Mark = { index: 0, line: 0, column: 0 }
  if (tok.typ === TokenType.ANCHOR) {
    anchor = tok.value
    start_mark = tok.start_mark
    end_mark = tok.end_mark
    skip_token(parser)
    tok = peek_token(parser)
    if (tok === null) return null
    if (tok.typ === TokenType.TAG) {
      tag_token = true
      tag_handle = tok.value
      tag_suffix = tok.suffix
      tag_mark = tok.start_mark
      end_mark = tok.end_mark
      skip_token(parser)
      tok = peek_token(parser)
      if (tok === null) return null
    }
  } else if (tok.typ === TokenType.TAG) {
    tag_token = true
    tag_handle = tok.value
    tag_suffix = tok.suffix
    start_mark = tok.start_mark
    tag_mark = tok.start_mark
    end_mark = tok.end_mark
    skip_token(parser)
    tok = peek_token(parser)
    if (tok === null) return null
    if (tok.typ === TokenType.ANCHOR) {
      anchor = tok.value
      end_mark = tok.end_mark
      skip_token(parser)
      tok = peek_token(parser)
      if (tok === null) return null
    }
  }
  let tag: string | null = null
  if (tag_token) {
    if (tag_handle === null || tag_handle.length === 0) {
      tag = tag_suffix
    } else {
      for (const d of parser.tag_directives) {
        if (d.handle === tag_handle) {
          tag = d.prefix + (tag_suffix ?? '')
          break
        }
      }
      if (tag === null || tag.length === 0) {
        return set_parser_error_context(
          parser,
          'while parsing a node',
          start_mark,
          'found undefined tag handle',
          tag_mark,
        )
      }
    }
  }
  const tagLen = tag?.length ?? 0
  const implicit = tagLen === 0
  if (indentless_sequence && tok.typ === TokenType.BLOCK_ENTRY) {
    end_mark = tok.end_mark
    parser.state = State.INDENTLESS_SEQUENCE_ENTRY
    return event(EventType.SEQUENCE_START, start_mark, end_mark, {
      anchor,
      tag,
      implicit,
      style: CollectionStyle.BLOCK,
    })
  }
  if (tok.typ === TokenType.SCALAR) {
    let plain_implicit = false
    let quoted_implicit = false
    end_mark = tok.end_mark
    if ((tagLen === 0 && tok.style === ScalarStyle.PLAIN) || (tagLen === 1 && tag === '!'))
      plain_implicit = true
    else if (tagLen === 0) quoted_implicit = true
    popState(parser)
    const e = event(EventType.SCALAR, start_mark, end_mark, {
      anchor,
      tag,
      value: tok.value,
      implicit: plain_implicit,
      quoted_implicit,
      style: tok.style,
    })
    set_event_comments(parser, e)
    skip_token(parser)
    return e
  }
  if (tok.typ === TokenType.FLOW_SEQUENCE_START) {
    end_mark = tok.end_mark
    parser.state = State.FLOW_SEQUENCE_FIRST_ENTRY
    const e = event(EventType.SEQUENCE_START, start_mark, end_mark, {
      anchor,
      tag,
      implicit,
      style: CollectionStyle.FLOW,
    })
    set_event_comments(parser, e)
    return e
  }
  if (tok.typ === TokenType.FLOW_MAPPING_START) {
    end_mark = tok.end_mark
    parser.state = State.FLOW_MAPPING_FIRST_KEY
    const e = event(EventType.MAPPING_START, start_mark, end_mark, {
      anchor,
      tag,
      implicit,
      style: CollectionStyle.FLOW,
    })
    set_event_comments(parser, e)
    return e
  }
  if (block && tok.typ === TokenType.BLOCK_SEQUENCE_START) {
    end_mark = tok.end_mark
    parser.state = State.BLOCK_SEQUENCE_FIRST_ENTRY
    const e = event(EventType.SEQUENCE_START, start_mark, end_mark, {
      anchor,
      tag,
      implicit,
      style: CollectionStyle.BLOCK,
    })
    if (parser.stem_comment !== null) {
      e.head_comment = parser.stem_comment
      parser.stem_comment = null
    }
    return e
  }
  if (block && tok.typ === TokenType.BLOCK_MAPPING_START) {
    end_mark = tok.end_mark
    parser.state = State.BLOCK_MAPPING_FIRST_KEY
    const e = event(EventType.MAPPING_START, start_mark, end_mark, {
      anchor,
      tag,
      implicit,
      style: CollectionStyle.BLOCK,
    })
    if (parser.stem_comment !== null) {
      e.head_comment = parser.stem_comment
      parser.stem_comment = null
    }
    return e
  }
  if ((anchor?.length ?? 0) > 0 || tagLen > 0) {
    popState(parser)
    return event(EventType.SCALAR, start_mark, end_mark, {
      anchor,
      tag,
      implicit,
      quoted_implicit: false,
      style: ScalarStyle.PLAIN,
    })
  }
  const context = block ? 'while parsing a block node' : 'while parsing a flow node'
  return set_parser_error_context(
    parser,
    context,
    start_mark,
    'did not find expected node content',
    tok.start_mark,
  )
}

function parse_block_sequence_entry(parser: ParserState, first: boolean): R {
  if (first) {
    const t = peek_token(parser)
    if (t === null) return null
    parser.marks.push(t.start_mark)
    skip_token(parser)
  }
  let tok = peek_token(parser)
  if (tok === null) return null
  if (tok.typ === TokenType.BLOCK_ENTRY) {
    const m = tok.end_mark
    const prior_head_len = parser.head_comment?.length ?? 0
    skip_token(parser)
    split_stem_comment(parser, prior_head_len)
    tok = peek_token(parser)
    if (tok === null) return null
    if (tok.typ !== TokenType.BLOCK_ENTRY && tok.typ !== TokenType.BLOCK_END) {
      parser.states.push(State.BLOCK_SEQUENCE_ENTRY)
      return parse_node(parser, true, false)
    }
    parser.state = State.BLOCK_SEQUENCE_ENTRY
    return process_empty_scalar(m)
  }
  if (tok.typ === TokenType.BLOCK_END) {
    popState(parser)
    parser.marks.pop()
    const e = event(EventType.SEQUENCE_END, tok.start_mark, tok.end_mark)
    skip_token(parser)
    return e
  }
  const context_mark = parser.marks.pop() as Mark
  return set_parser_error_context(
    parser,
    'while parsing a block collection',
    context_mark,
    "did not find expected '-' indicator",
    tok.start_mark,
  )
}

function parse_indentless_sequence_entry(parser: ParserState): R {
  let tok = peek_token(parser)
  if (tok === null) return null
  if (tok.typ === TokenType.BLOCK_ENTRY) {
    const m = tok.end_mark
    const prior_head_len = parser.head_comment?.length ?? 0
    skip_token(parser)
    split_stem_comment(parser, prior_head_len)
    tok = peek_token(parser)
    if (tok === null) return null
    if (
      tok.typ !== TokenType.BLOCK_ENTRY &&
      tok.typ !== TokenType.KEY &&
      tok.typ !== TokenType.VALUE &&
      tok.typ !== TokenType.BLOCK_END
    ) {
      parser.states.push(State.INDENTLESS_SEQUENCE_ENTRY)
      return parse_node(parser, true, false)
    }
    parser.state = State.INDENTLESS_SEQUENCE_ENTRY
    return process_empty_scalar(m)
  }
  popState(parser)
  return event(EventType.SEQUENCE_END, tok.start_mark, tok.start_mark)
}

function split_stem_comment(parser: ParserState, stem_len: number): void {
  if (stem_len === 0) return
  const tok = peek_token(parser)
  if (
    tok === null ||
    (tok.typ !== TokenType.BLOCK_SEQUENCE_START && tok.typ !== TokenType.BLOCK_MAPPING_START)
  ) {
    return
  }
  const hc = parser.head_comment ?? ''
  parser.stem_comment = hc.slice(0, stem_len)
  parser.head_comment = hc.length === stem_len ? null : hc.slice(stem_len + 1)
}

function parse_block_mapping_key(parser: ParserState, first: boolean): R {
  if (first) {
    const t = peek_token(parser)
    if (t === null) return null
    parser.marks.push(t.start_mark)
    skip_token(parser)
  }
  let tok = peek_token(parser)
  if (tok === null) return null
  if (parser.tail_comment !== null && parser.tail_comment.length > 0) {
    const e = event(EventType.TAIL_COMMENT, tok.start_mark, tok.end_mark, {
      foot_comment: parser.tail_comment,
    })
    parser.tail_comment = null
    return e
  }
  if (tok.typ === TokenType.KEY) {
    const m = tok.end_mark
    skip_token(parser)
    tok = peek_token(parser)
    if (tok === null) return null
    if (tok.typ !== TokenType.KEY && tok.typ !== TokenType.VALUE && tok.typ !== TokenType.BLOCK_END) {
      parser.states.push(State.BLOCK_MAPPING_VALUE)
      return parse_node(parser, true, true)
    }
    parser.state = State.BLOCK_MAPPING_VALUE
    return process_empty_scalar(m)
  }
  if (tok.typ === TokenType.BLOCK_END) {
    popState(parser)
    parser.marks.pop()
    const e = event(EventType.MAPPING_END, tok.start_mark, tok.end_mark)
    set_event_comments(parser, e)
    skip_token(parser)
    return e
  }
  const context_mark = parser.marks.pop() as Mark
  return set_parser_error_context(
    parser,
    'while parsing a block mapping',
    context_mark,
    'did not find expected key',
    tok.start_mark,
  )
}

function parse_block_mapping_value(parser: ParserState): R {
  let tok = peek_token(parser)
  if (tok === null) return null
  if (tok.typ === TokenType.VALUE) {
    const m = tok.end_mark
    skip_token(parser)
    tok = peek_token(parser)
    if (tok === null) return null
    if (tok.typ !== TokenType.KEY && tok.typ !== TokenType.VALUE && tok.typ !== TokenType.BLOCK_END) {
      parser.states.push(State.BLOCK_MAPPING_KEY)
      return parse_node(parser, true, true)
    }
    parser.state = State.BLOCK_MAPPING_KEY
    return process_empty_scalar(m)
  }
  parser.state = State.BLOCK_MAPPING_KEY
  return process_empty_scalar(tok.start_mark)
}

function parse_flow_sequence_entry(parser: ParserState, first: boolean): R {
  if (first) {
    const t = peek_token(parser)
    if (t === null) return null
    parser.marks.push(t.start_mark)
    skip_token(parser)
  }
  let tok = peek_token(parser)
  if (tok === null) return null
  if (tok.typ !== TokenType.FLOW_SEQUENCE_END) {
    if (!first) {
      if (tok.typ === TokenType.FLOW_ENTRY) {
        skip_token(parser)
        tok = peek_token(parser)
        if (tok === null) return null
      } else {
        const context_mark = parser.marks.pop() as Mark
        return set_parser_error_context(
          parser,
          'while parsing a flow sequence',
          context_mark,
          "did not find expected ',' or ']'",
          tok.start_mark,
        )
      }
    }
    if (tok.typ === TokenType.KEY) {
      parser.state = State.FLOW_SEQUENCE_ENTRY_MAPPING_KEY
      const e = event(EventType.MAPPING_START, tok.start_mark, tok.end_mark, {
        implicit: true,
        style: CollectionStyle.FLOW,
      })
      skip_token(parser)
      return e
    }
    if (tok.typ !== TokenType.FLOW_SEQUENCE_END) {
      parser.states.push(State.FLOW_SEQUENCE_ENTRY)
      return parse_node(parser, false, false)
    }
  }
  popState(parser)
  parser.marks.pop()
  const e = event(EventType.SEQUENCE_END, tok.start_mark, tok.end_mark)
  set_event_comments(parser, e)
  skip_token(parser)
  return e
}

function parse_flow_sequence_entry_mapping_key(parser: ParserState): R {
  const tok = peek_token(parser)
  if (tok === null) return null
  if (
    tok.typ !== TokenType.VALUE &&
    tok.typ !== TokenType.FLOW_ENTRY &&
    tok.typ !== TokenType.FLOW_SEQUENCE_END
  ) {
    parser.states.push(State.FLOW_SEQUENCE_ENTRY_MAPPING_VALUE)
    return parse_node(parser, false, false)
  }
  const m = tok.end_mark
  skip_token(parser)
  parser.state = State.FLOW_SEQUENCE_ENTRY_MAPPING_VALUE
  return process_empty_scalar(m)
}

function parse_flow_sequence_entry_mapping_value(parser: ParserState): R {
  const tok = peek_token(parser)
  if (tok === null) return null
  if (tok.typ === TokenType.VALUE) {
    skip_token(parser)
    const t2 = peek_token(parser)
    if (t2 === null) return null
    if (t2.typ !== TokenType.FLOW_ENTRY && t2.typ !== TokenType.FLOW_SEQUENCE_END) {
      parser.states.push(State.FLOW_SEQUENCE_ENTRY_MAPPING_END)
      return parse_node(parser, false, false)
    }
  }
  parser.state = State.FLOW_SEQUENCE_ENTRY_MAPPING_END
  // The outer token (the VALUE's, when there was one), as yaml.v3's shadowed variable leaves it.
  return process_empty_scalar(tok.start_mark)
}

function parse_flow_sequence_entry_mapping_end(parser: ParserState): R {
  const tok = peek_token(parser)
  if (tok === null) return null
  parser.state = State.FLOW_SEQUENCE_ENTRY
  return event(EventType.MAPPING_END, tok.start_mark, tok.start_mark)
}

function parse_flow_mapping_key(parser: ParserState, first: boolean): R {
  if (first) {
    // yaml.v3 does not check this peek for nil.
    const t = peek_token(parser)
    if (t === null) throw new Error('runtime error: invalid memory address or nil pointer dereference')
    parser.marks.push(t.start_mark)
    skip_token(parser)
  }
  let tok = peek_token(parser)
  if (tok === null) return null
  if (tok.typ !== TokenType.FLOW_MAPPING_END) {
    if (!first) {
      if (tok.typ === TokenType.FLOW_ENTRY) {
        skip_token(parser)
        tok = peek_token(parser)
        if (tok === null) return null
      } else {
        const context_mark = parser.marks.pop() as Mark
        return set_parser_error_context(
          parser,
          'while parsing a flow mapping',
          context_mark,
          "did not find expected ',' or '}'",
          tok.start_mark,
        )
      }
    }
    if (tok.typ === TokenType.KEY) {
      skip_token(parser)
      tok = peek_token(parser)
      if (tok === null) return null
      if (
        tok.typ !== TokenType.VALUE &&
        tok.typ !== TokenType.FLOW_ENTRY &&
        tok.typ !== TokenType.FLOW_MAPPING_END
      ) {
        parser.states.push(State.FLOW_MAPPING_VALUE)
        return parse_node(parser, false, false)
      }
      parser.state = State.FLOW_MAPPING_VALUE
      return process_empty_scalar(tok.start_mark)
    }
    if (tok.typ !== TokenType.FLOW_MAPPING_END) {
      parser.states.push(State.FLOW_MAPPING_EMPTY_VALUE)
      return parse_node(parser, false, false)
    }
  }
  popState(parser)
  parser.marks.pop()
  const e = event(EventType.MAPPING_END, tok.start_mark, tok.end_mark)
  set_event_comments(parser, e)
  skip_token(parser)
  return e
}

function parse_flow_mapping_value(parser: ParserState, empty: boolean): R {
  let tok = peek_token(parser)
  if (tok === null) return null
  if (empty) {
    parser.state = State.FLOW_MAPPING_KEY
    return process_empty_scalar(tok.start_mark)
  }
  if (tok.typ === TokenType.VALUE) {
    skip_token(parser)
    tok = peek_token(parser)
    if (tok === null) return null
    if (tok.typ !== TokenType.FLOW_ENTRY && tok.typ !== TokenType.FLOW_MAPPING_END) {
      parser.states.push(State.FLOW_MAPPING_KEY)
      return parse_node(parser, false, false)
    }
  }
  parser.state = State.FLOW_MAPPING_KEY
  return process_empty_scalar(tok.start_mark)
}

function process_empty_scalar(m: Mark): Event {
  return event(EventType.SCALAR, m, m, { value: null, implicit: true, style: ScalarStyle.PLAIN })
}

const DEFAULT_TAG_DIRECTIVES: TagDirective[] = [
  { handle: '!', prefix: '!' },
  { handle: '!!', prefix: 'tag:yaml.org,2002:' },
]

function process_directives(parser: ParserState): boolean {
  let version_seen = false
  let tok = peek_token(parser)
  if (tok === null) return false
  while (tok.typ === TokenType.VERSION_DIRECTIVE || tok.typ === TokenType.TAG_DIRECTIVE) {
    if (tok.typ === TokenType.VERSION_DIRECTIVE) {
      if (version_seen) {
        set_parser_error(parser, 'found duplicate %YAML directive', tok.start_mark)
        return false
      }
      if (tok.major !== 1 || tok.minor !== 1) {
        set_parser_error(parser, 'found incompatible YAML document', tok.start_mark)
        return false
      }
      version_seen = true
    } else {
      const value = { handle: tok.value ?? '', prefix: tok.prefix ?? '' }
      if (!append_tag_directive(parser, value, false, tok.start_mark)) return false
    }
    skip_token(parser)
    tok = peek_token(parser)
    if (tok === null) return false
  }
  for (const d of DEFAULT_TAG_DIRECTIVES) {
    if (!append_tag_directive(parser, d, true, tok.start_mark)) return false
  }
  return true
}

function append_tag_directive(
  parser: ParserState,
  value: TagDirective,
  allow_duplicates: boolean,
  m: Mark,
): boolean {
  for (const d of parser.tag_directives) {
    if (value.handle === d.handle) {
      if (allow_duplicates) return true
      set_parser_error(parser, 'found duplicate %TAG directive', m)
      return false
    }
  }
  parser.tag_directives.push({ handle: value.handle, prefix: value.prefix })
  return true
}
