/**
 * Go's encoding/json scanner (scanner.go): the byte-at-a-time state machine
 * behind checkValid, json.Valid and every SyntaxError text and offset.
 *
 * A port, state for state, so it can be audited against Go's source. Input is
 * a byte string (see ../../gostring.ts); error texts are byte strings too
 * (quoteChar writes bytes ≥ 0xA0 as UTF-8). Go 1.19 and 1.25 agree on all of it.
 */
import type { GoError } from '../../errors.js'
import type { GoString } from '../../gostring.js'
import { quote } from '../../strconv/quote.js'
import { encodeRune } from '../../unicode/utf8.js'

/** Where the scanner stops when a value is not followed by a comma or the close (encoding/json's contexts). */
export const AFTER_OBJECT_PAIR = 'after object key:value pair'
export const AFTER_ARRAY_ELEMENT = 'after array element'

// Opcodes returned by the state functions and by Scanner.eof. Their order
// matters: scanSkipSpace is the last "continue" result, scanEnd the first "stop".
/** Uninteresting byte. */
/** The message of the SyntaxError for input that ends inside a value. */
export const UNEXPECTED_END = 'unexpected end of JSON input'

export const scanContinue = 0
/** End implied by next result !== scanContinue. */
export const scanBeginLiteral = 1
export const scanBeginObject = 2
/** Just finished object key (string). */
export const scanObjectKey = 3
/** Just finished non-last object value. */
export const scanObjectValue = 4
/** End object (implies scanObjectValue if possible). */
export const scanEndObject = 5
export const scanBeginArray = 6
/** Just finished array value. */
export const scanArrayValue = 7
/** End array (implies scanArrayValue if possible). */
export const scanEndArray = 8
/** Space byte; can skip. */
export const scanSkipSpace = 9
/** Top-level value ended *before* this byte. */
export const scanEnd = 10
/** Hit an error, scanner.err. */
export const scanError = 11

// Values stored in the parseState stack.
/** Parsing object key (before colon). */
export const parseObjectKey = 0
/** Parsing object value (after colon). */
export const parseObjectValue = 1
/** Parsing array value. */
export const parseArrayValue = 2

/** Limits nesting, as RFC 7159 section 9 permits. */
export const maxNestingDepth = 10000

/** A description of a JSON syntax error: json.SyntaxError. */
// biome-ignore lint/suspicious/noShadowRestrictedNames: named after Go's json.SyntaxError
export class SyntaxError implements GoError {
  constructor(
    /** Description of the error (a byte string). */
    readonly msg: GoString,
    /** Error occurred after reading offset bytes. */
    readonly offset: number,
  ) {}

  error(): GoString {
    return this.msg
  }
}

export type StateFunc = (s: Scanner, c: number) => number

/**
 * A JSON scanning state machine. Call reset, then pass bytes in one at a time
 * with `s.step(s, c)`; the returned opcode reports parsing events.
 */
export class Scanner {
  /** The next transition. */
  step: StateFunc = stateBeginValue
  /** Reached end of top-level value. */
  endTop = false
  /** Stack of what we're in the middle of: array values, object keys, object values. */
  parseState: number[] = []
  /** Error that happened, if any. */
  err: SyntaxError | null = null
  /** Total bytes consumed; deliberately not zeroed by reset. */
  bytes = 0

  /** Prepares the scanner for use; call before step. */
  reset(): void {
    this.step = stateBeginValue
    this.parseState.length = 0
    this.err = null
    this.endTop = false
  }

  /** Tells the scanner the input has ended; it feeds a ' ' to flush a pending number. */
  eof(): number {
    if (this.err !== null) return scanError
    if (this.endTop) return scanEnd
    this.step(this, 0x20)
    if (this.endTop) return scanEnd
    if (this.err === null) {
      this.err = new SyntaxError(UNEXPECTED_END, this.bytes)
    }
    return scanError
  }

  /** Pushes a parse state; errors once maxNestingDepth is exceeded, else returns successState. */
  pushParseState(c: number, newParseState: number, successState: number): number {
    this.parseState.push(newParseState)
    if (this.parseState.length <= maxNestingDepth) return successState
    return this.error(c, 'exceeded max depth')
  }

  /** Pops a parse state (already obtained) and updates step accordingly. */
  popParseState(): void {
    this.parseState.pop()
    if (this.parseState.length === 0) {
      this.step = stateEndTop
      this.endTop = true
    } else {
      this.step = stateEndValue
    }
  }

  /** Records an error and switches to the error state. */
  error(c: number, context: string): number {
    this.step = stateError
    this.err = new SyntaxError('invalid character ' + quoteChar(c) + ' ' + context, this.bytes)
    return scanError
  }
}

function isSpace(c: number): boolean {
  return c <= 0x20 && (c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a)
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46)
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39
}

/** The state after reading `[`. */
export function stateBeginValueOrEmpty(s: Scanner, c: number): number {
  if (isSpace(c)) return scanSkipSpace
  if (c === 0x5d /* ] */) return stateEndValue(s, c)
  return stateBeginValue(s, c)
}

/** The state at the beginning of the input. */
export function stateBeginValue(s: Scanner, c: number): number {
  if (isSpace(c)) return scanSkipSpace
  switch (c) {
    case 0x7b: // {
      s.step = stateBeginStringOrEmpty
      return s.pushParseState(c, parseObjectKey, scanBeginObject)
    case 0x5b: // [
      s.step = stateBeginValueOrEmpty
      return s.pushParseState(c, parseArrayValue, scanBeginArray)
    case 0x22: // "
      s.step = stateInString
      return scanBeginLiteral
    case 0x2d: // -
      s.step = stateNeg
      return scanBeginLiteral
    case 0x30: // 0, beginning of 0.123
      s.step = state0
      return scanBeginLiteral
    case 0x74: // t, beginning of true
      s.step = stateT
      return scanBeginLiteral
    case 0x66: // f, beginning of false
      s.step = stateF
      return scanBeginLiteral
    case 0x6e: // n, beginning of null
      s.step = stateN
      return scanBeginLiteral
  }
  if (c >= 0x31 && c <= 0x39) {
    // beginning of 1234.5
    s.step = state1
    return scanBeginLiteral
  }
  return s.error(c, 'looking for beginning of value')
}

/** The state after reading `{`. */
export function stateBeginStringOrEmpty(s: Scanner, c: number): number {
  if (isSpace(c)) return scanSkipSpace
  if (c === 0x7d /* } */) {
    s.parseState[s.parseState.length - 1] = parseObjectValue
    return stateEndValue(s, c)
  }
  return stateBeginString(s, c)
}

/** The state after reading `{"key": value,`. */
export function stateBeginString(s: Scanner, c: number): number {
  if (isSpace(c)) return scanSkipSpace
  if (c === 0x22) {
    s.step = stateInString
    return scanBeginLiteral
  }
  return s.error(c, 'looking for beginning of object key string')
}

/** The state after completing a value, such as after reading `{}` or `true` or `["x"`. */
export function stateEndValue(s: Scanner, c: number): number {
  const n = s.parseState.length
  if (n === 0) {
    // Completed top-level before the current byte.
    s.step = stateEndTop
    s.endTop = true
    return stateEndTop(s, c)
  }
  if (isSpace(c)) {
    s.step = stateEndValue
    return scanSkipSpace
  }
  switch (s.parseState[n - 1]) {
    case parseObjectKey:
      if (c === 0x3a /* : */) {
        s.parseState[n - 1] = parseObjectValue
        s.step = stateBeginValue
        return scanObjectKey
      }
      return s.error(c, 'after object key')
    case parseObjectValue:
      if (c === 0x2c /* , */) {
        s.parseState[n - 1] = parseObjectKey
        s.step = stateBeginString
        return scanObjectValue
      }
      if (c === 0x7d /* } */) {
        s.popParseState()
        return scanEndObject
      }
      return s.error(c, AFTER_OBJECT_PAIR)
    case parseArrayValue:
      if (c === 0x2c) {
        s.step = stateBeginValue
        return scanArrayValue
      }
      if (c === 0x5d /* ] */) {
        s.popParseState()
        return scanEndArray
      }
      return s.error(c, AFTER_ARRAY_ELEMENT)
  }
  return s.error(c, '')
}

/**
 * The state after finishing the top-level value. Only spaces may follow; on
 * anything else the error is recorded but scanEnd still returned (Go complains
 * "on next call", so checkValid reports it at eof with this byte's offset).
 */
export function stateEndTop(s: Scanner, c: number): number {
  if (!isSpace(c)) s.error(c, 'after top-level value')
  return scanEnd
}

/** The state after reading `"`. */
export function stateInString(s: Scanner, c: number): number {
  if (c === 0x22) {
    s.step = stateEndValue
    return scanContinue
  }
  if (c === 0x5c /* \ */) {
    s.step = stateInStringEsc
    return scanContinue
  }
  if (c < 0x20) return s.error(c, 'in string literal')
  return scanContinue
}

/** The state after reading `"\` during a quoted string. */
export function stateInStringEsc(s: Scanner, c: number): number {
  switch (c) {
    case 0x62: // b
    case 0x66: // f
    case 0x6e: // n
    case 0x72: // r
    case 0x74: // t
    case 0x5c: // \
    case 0x2f: // /
    case 0x22: // "
      s.step = stateInString
      return scanContinue
    case 0x75: // u
      s.step = stateInStringEscU
      return scanContinue
  }
  return s.error(c, 'in string escape code')
}

/** The state after reading `"\u` during a quoted string. */
export function stateInStringEscU(s: Scanner, c: number): number {
  if (isHex(c)) {
    s.step = stateInStringEscU1
    return scanContinue
  }
  return s.error(c, 'in \\u hexadecimal character escape')
}

/** The state after reading `"\u1` during a quoted string. */
export function stateInStringEscU1(s: Scanner, c: number): number {
  if (isHex(c)) {
    s.step = stateInStringEscU12
    return scanContinue
  }
  return s.error(c, 'in \\u hexadecimal character escape')
}

/** The state after reading `"\u12` during a quoted string. */
export function stateInStringEscU12(s: Scanner, c: number): number {
  if (isHex(c)) {
    s.step = stateInStringEscU123
    return scanContinue
  }
  return s.error(c, 'in \\u hexadecimal character escape')
}

/** The state after reading `"\u123` during a quoted string. */
export function stateInStringEscU123(s: Scanner, c: number): number {
  if (isHex(c)) {
    s.step = stateInString
    return scanContinue
  }
  return s.error(c, 'in \\u hexadecimal character escape')
}

/** The state after reading `-` during a number. */
export function stateNeg(s: Scanner, c: number): number {
  if (c === 0x30) {
    s.step = state0
    return scanContinue
  }
  if (c >= 0x31 && c <= 0x39) {
    s.step = state1
    return scanContinue
  }
  return s.error(c, 'in numeric literal')
}

/** The state after reading a non-zero integer during a number, such as `1` or `100` but not `0`. */
export function state1(s: Scanner, c: number): number {
  if (isDigit(c)) {
    s.step = state1
    return scanContinue
  }
  return state0(s, c)
}

/** The state after reading `0` during a number. */
export function state0(s: Scanner, c: number): number {
  if (c === 0x2e /* . */) {
    s.step = stateDot
    return scanContinue
  }
  if (c === 0x65 || c === 0x45 /* e E */) {
    s.step = stateE
    return scanContinue
  }
  return stateEndValue(s, c)
}

/** The state after reading the integer and decimal point in a number, such as `1.`. */
export function stateDot(s: Scanner, c: number): number {
  if (isDigit(c)) {
    s.step = stateDot0
    return scanContinue
  }
  return s.error(c, 'after decimal point in numeric literal')
}

/** The state after reading the integer, decimal point and subsequent digits, such as `3.14`. */
export function stateDot0(s: Scanner, c: number): number {
  if (isDigit(c)) return scanContinue
  if (c === 0x65 || c === 0x45) {
    s.step = stateE
    return scanContinue
  }
  return stateEndValue(s, c)
}

/** The state after reading the mantissa and e in a number, such as `314e` or `0.314e`. */
export function stateE(s: Scanner, c: number): number {
  if (c === 0x2b || c === 0x2d /* + - */) {
    s.step = stateESign
    return scanContinue
  }
  return stateESign(s, c)
}

/** The state after reading the mantissa, e and sign in a number, such as `314e-`. */
export function stateESign(s: Scanner, c: number): number {
  if (isDigit(c)) {
    s.step = stateE0
    return scanContinue
  }
  return s.error(c, 'in exponent of numeric literal')
}

/** The state after reading the mantissa, e, optional sign and an exponent digit, such as `3.14e0`. */
export function stateE0(s: Scanner, c: number): number {
  if (isDigit(c)) return scanContinue
  return stateEndValue(s, c)
}

/** The state after reading `t`. */
export function stateT(s: Scanner, c: number): number {
  if (c === 0x72 /* r */) {
    s.step = stateTr
    return scanContinue
  }
  return s.error(c, "in literal true (expecting 'r')")
}

/** The state after reading `tr`. */
export function stateTr(s: Scanner, c: number): number {
  if (c === 0x75 /* u */) {
    s.step = stateTru
    return scanContinue
  }
  return s.error(c, "in literal true (expecting 'u')")
}

/** The state after reading `tru`. */
export function stateTru(s: Scanner, c: number): number {
  if (c === 0x65 /* e */) {
    s.step = stateEndValue
    return scanContinue
  }
  return s.error(c, "in literal true (expecting 'e')")
}

/** The state after reading `f`. */
export function stateF(s: Scanner, c: number): number {
  if (c === 0x61 /* a */) {
    s.step = stateFa
    return scanContinue
  }
  return s.error(c, "in literal false (expecting 'a')")
}

/** The state after reading `fa`. */
export function stateFa(s: Scanner, c: number): number {
  if (c === 0x6c /* l */) {
    s.step = stateFal
    return scanContinue
  }
  return s.error(c, "in literal false (expecting 'l')")
}

/** The state after reading `fal`. */
export function stateFal(s: Scanner, c: number): number {
  if (c === 0x73 /* s */) {
    s.step = stateFals
    return scanContinue
  }
  return s.error(c, "in literal false (expecting 's')")
}

/** The state after reading `fals`. */
export function stateFals(s: Scanner, c: number): number {
  if (c === 0x65 /* e */) {
    s.step = stateEndValue
    return scanContinue
  }
  return s.error(c, "in literal false (expecting 'e')")
}

/** The state after reading `n`. */
export function stateN(s: Scanner, c: number): number {
  if (c === 0x75 /* u */) {
    s.step = stateNu
    return scanContinue
  }
  return s.error(c, "in literal null (expecting 'u')")
}

/** The state after reading `nu`. */
export function stateNu(s: Scanner, c: number): number {
  if (c === 0x6c /* l */) {
    s.step = stateNul
    return scanContinue
  }
  return s.error(c, "in literal null (expecting 'l')")
}

/** The state after reading `nul`. */
export function stateNul(s: Scanner, c: number): number {
  if (c === 0x6c /* l */) {
    s.step = stateEndValue
    return scanContinue
  }
  return s.error(c, "in literal null (expecting 'l')")
}

/** The state after reaching a syntax error, such as after reading `[1}` or `5.1.2`. */
export function stateError(_s: Scanner, _c: number): number {
  return scanError
}

/**
 * checkValid: nil (null) or the SyntaxError of the first problem in data.
 * The offset counts the bytes read when the error was detected.
 */
export function checkValid(data: GoString): SyntaxError | null {
  const scan = new Scanner()
  const n = data.length
  for (let i = 0; i < n; i++) {
    let c = data.charCodeAt(i)
    // Fast paths over runs of bytes that leave the state as it is: the body of
    // a string, and spaces between tokens. The run's last byte still goes
    // through step, so scan.bytes is right wherever an error can occur.
    if (scan.step === stateInString) {
      while (c >= 0x20 && c !== 0x22 && c !== 0x5c && i + 1 < n) c = data.charCodeAt(++i)
    } else if (isSpace(c) && skipsSpace(scan)) {
      while (isSpace(c) && i + 1 < n) c = data.charCodeAt(++i)
    }
    scan.bytes = i + 1
    if (scan.step(scan, c) === scanError) return scan.err
  }
  if (scan.eof() === scanError) return scan.err
  return null
}

/** Whether the current state returns scanSkipSpace for a space without changing anything. */
function skipsSpace(s: Scanner): boolean {
  const step = s.step
  return (
    step === stateBeginValue ||
    step === stateBeginValueOrEmpty ||
    step === stateBeginStringOrEmpty ||
    step === stateBeginString ||
    step === stateEndTop ||
    (step === stateEndValue && s.parseState.length > 0)
  )
}

/** json.Valid: whether data is a valid JSON encoding. */
export function valid(data: GoString): boolean {
  return checkValid(data) === null
}

const quotedChars: GoString[] = Array.from({ length: 256 }, (_, c) => {
  // Special cases, different from quoted strings.
  if (c === 0x27) return "'\\''"
  if (c === 0x22) return `'"'`
  // strconv.Quote(string(c)): the byte taken as the rune U+00c.
  const q = quote(encodeRune(c))
  return "'" + q.slice(1, -1) + "'"
})

/** quoteChar formats the byte c as a quoted character literal, as in Go's error texts. */
export function quoteChar(c: number): GoString {
  return quotedChars[c & 0xff]
}
