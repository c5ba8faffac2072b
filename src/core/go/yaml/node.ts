/**
 * gopkg.in/yaml.v3 (v3.0.1): the Node tree (yaml.go) and the parser that builds it from the
 * event stream (decode.go's `parser`), as yaml.Unmarshal runs it: the first document only,
 * anchors resolved as they are met, and its failures as `yaml: line N: …` texts.
 */
import { parse as parseEvent } from './parserc.js'
import { MAP_TAG, MERGE_TAG, resolve, SEQ_TAG, STR_TAG, shortTag } from './resolve.js'
import {
  CollectionStyle,
  copyMark,
  ErrorType,
  type Event,
  EventType,
  eventString,
  type Mark,
  ParserState,
  ScalarStyle,
} from './yamlh.js'

export enum Kind {
  Document = 1,
  Sequence = 2,
  Mapping = 3,
  Scalar = 4,
  Alias = 5,
}

export const TaggedStyle = 1
export const DoubleQuotedStyle = 2
export const SingleQuotedStyle = 4
export const LiteralStyle = 8
export const FoldedStyle = 16
export const FlowStyle = 32

export interface Node {
  kind: Kind
  style: number
  /** The tag (short form), resolved for untagged plain scalars. */
  tag: string
  /** Scalar value, alias name (a byte string). */
  value: string
  anchor: string
  alias: Node | null
  content: Node[]
  /** 1-based. */
  line: number
  /** 1-based, in characters. */
  column: number
  /** 0-based character index of the node's start (its event's start mark). */
  index: number
  /** 0-based character index of its event's end mark: for a scalar, just past its text. */
  endIndex: number
}

/** A yaml.v3 failure (failf / yamlError): `yaml: …`, with the mark of the problem when it is a syntax error. */
export class YamlError extends Error {
  constructor(
    message: string,
    readonly mark: Mark | null = null,
  ) {
    super(message)
  }
}

function failf(msg: string, mark: Mark | null = null): never {
  throw new YamlError(`yaml: ${msg}`, mark)
}

/** Node.ShortTag() */
export function nodeShortTag(n: Node): string {
  if (indicatedString(n)) return STR_TAG
  if (n.tag === '' || n.tag === '!') {
    switch (n.kind) {
      case Kind.Mapping:
        return MAP_TAG
      case Kind.Sequence:
        return SEQ_TAG
      case Kind.Alias:
        return n.alias ? nodeShortTag(n.alias) : ''
      case Kind.Scalar:
        return resolve('', n.value).tag
      default:
        return ''
    }
  }
  return shortTag(n.tag)
}

/** Node.indicatedString() */
export function indicatedString(n: Node): boolean {
  return (
    n.kind === Kind.Scalar &&
    (shortTag(n.tag) === STR_TAG ||
      ((n.tag === '' || n.tag === '!') &&
        (n.style & (DoubleQuotedStyle | SingleQuotedStyle | LiteralStyle | FoldedStyle)) !== 0))
  )
}

class Composer {
  private readonly parser: ParserState
  private event: Event | null = null
  private anchors = new Map<string, Node>()
  private doneInit = false

  constructor(input: string) {
    this.parser = new ParserState(input.length === 0 ? '\n' : input)
  }

  private init(): void {
    if (this.doneInit) return
    this.expect(EventType.STREAM_START)
    this.doneInit = true
  }

  private fail(): never {
    const p = this.parser
    let line = 0
    if (p.context_mark.line !== 0) {
      line = p.context_mark.line
      if (p.error === ErrorType.SCANNER) line++
    } else if (p.problem_mark.line !== 0) {
      line = p.problem_mark.line
      if (p.error === ErrorType.SCANNER) line++
    }
    const where = line !== 0 ? `line ${line}: ` : ''
    const msg = p.problem.length > 0 ? p.problem : 'unknown problem parsing YAML content'
    failf(`${where}${msg}`, p.error === ErrorType.READER ? null : copyMark(p.problem_mark))
  }

  private expect(e: EventType): void {
    if (this.event === null) {
      this.event = parseEvent(this.parser)
      if (this.event === null) this.fail()
    }
    if (this.event.typ === EventType.STREAM_END)
      failf('attempted to go past the end of stream; corrupted value?')
    if (this.event.typ !== e) {
      this.parser.problem = `expected ${eventString(e)} event but got ${eventString(this.event.typ)}`
      this.fail()
    }
    this.event = null
  }

  private peek(): Event {
    if (this.event !== null) return this.event
    const ev = parseEvent(this.parser)
    if (ev === null || this.parser.error !== ErrorType.NO) this.fail()
    this.event = ev
    return ev
  }

  parse(): Node | null {
    this.init()
    const ev = this.peek()
    switch (ev.typ) {
      case EventType.SCALAR:
        return this.scalar()
      case EventType.ALIAS:
        return this.alias()
      case EventType.MAPPING_START:
        return this.mapping()
      case EventType.SEQUENCE_START:
        return this.sequence()
      case EventType.DOCUMENT_START:
        return this.document()
      case EventType.STREAM_END:
        return null
      case EventType.TAIL_COMMENT:
        throw new Error('internal error: unexpected tail comment event (please report)')
      default:
        throw new Error(
          `internal error: attempted to parse unknown event (please report): ${eventString(ev.typ)}`,
        )
    }
  }

  private node(kind: Kind, defaultTag: string, tag: string, value: string): Node {
    let style = 0
    if (tag !== '' && tag !== '!') {
      tag = shortTag(tag)
      style = TaggedStyle
    } else if (defaultTag !== '') {
      tag = defaultTag
    } else if (kind === Kind.Scalar) {
      tag = resolve('', value).tag
    }
    const m = (this.event as Event).start_mark
    const end = (this.event as Event).end_mark
    return {
      kind,
      style,
      tag,
      value,
      anchor: '',
      alias: null,
      content: [],
      line: m.line + 1,
      column: m.column + 1,
      index: m.index,
      endIndex: end.index,
    }
  }

  private parseChild(parent: Node): Node {
    const child = this.parse() as Node
    parent.content.push(child)
    return child
  }

  private anchor(n: Node, anchor: string | null): void {
    if (anchor !== null) {
      n.anchor = anchor
      this.anchors.set(anchor, n)
    }
  }

  private document(): Node {
    const n = this.node(Kind.Document, '', '', '')
    this.expect(EventType.DOCUMENT_START)
    this.parseChild(n)
    this.peek()
    this.expect(EventType.DOCUMENT_END)
    return n
  }

  private alias(): Node {
    const ev = this.event as Event
    const n = this.node(Kind.Alias, '', '', ev.anchor ?? '')
    n.alias = this.anchors.get(n.value) ?? null
    if (n.alias === null) failf(`unknown anchor '${n.value}' referenced`)
    this.expect(EventType.ALIAS)
    return n
  }

  private scalar(): Node {
    const ev = this.event as Event
    const parsed = ev.style
    let nodeStyle = 0
    if (parsed & ScalarStyle.DOUBLE_QUOTED) nodeStyle = DoubleQuotedStyle
    else if (parsed & ScalarStyle.SINGLE_QUOTED) nodeStyle = SingleQuotedStyle
    else if (parsed & ScalarStyle.LITERAL) nodeStyle = LiteralStyle
    else if (parsed & ScalarStyle.FOLDED) nodeStyle = FoldedStyle
    const value = ev.value ?? ''
    let defaultTag = ''
    if (nodeStyle === 0) {
      if (value === '<<') defaultTag = MERGE_TAG
    } else {
      defaultTag = STR_TAG
    }
    const n = this.node(Kind.Scalar, defaultTag, ev.tag ?? '', value)
    n.style |= nodeStyle
    this.anchor(n, ev.anchor)
    this.expect(EventType.SCALAR)
    return n
  }

  private sequence(): Node {
    const ev = this.event as Event
    const n = this.node(Kind.Sequence, SEQ_TAG, ev.tag ?? '', '')
    if (ev.style === CollectionStyle.FLOW) n.style |= FlowStyle
    this.anchor(n, ev.anchor)
    this.expect(EventType.SEQUENCE_START)
    while (this.peek().typ !== EventType.SEQUENCE_END) this.parseChild(n)
    this.expect(EventType.SEQUENCE_END)
    return n
  }

  private mapping(): Node {
    const ev = this.event as Event
    const n = this.node(Kind.Mapping, MAP_TAG, ev.tag ?? '', '')
    if (ev.style === CollectionStyle.FLOW) n.style |= FlowStyle
    this.anchor(n, ev.anchor)
    this.expect(EventType.MAPPING_START)
    while (this.peek().typ !== EventType.MAPPING_END) {
      this.parseChild(n)
      this.parseChild(n)
      if (this.peek().typ === EventType.TAIL_COMMENT) this.expect(EventType.TAIL_COMMENT)
    }
    this.expect(EventType.MAPPING_END)
    return n
  }
}

/**
 * What yaml.Unmarshal(in, …) parses before decoding: the first document's node (null for an
 * empty stream). Throws YamlError with yaml.v3's text when the YAML does not parse.
 */
export function parseFirstDocument(input: string): Node | null {
  return new Composer(input).parse()
}
