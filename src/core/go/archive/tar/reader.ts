/**
 * archive/tar's reader (Go 1.25, as the manager reads an uploaded tar), walked over a stream
 * without keeping it: which blocks it takes as headers (getFormat's checksums, readHeader's
 * numeric fields), parsePAX and mergePAX's refusals, where it stops and what an early end means.
 * Texts are archive/tar's and io's; a caller that wraps them (`tar: %w`) does so itself.
 */

import { isAscii } from 'node:buffer'

/** An error the reader returns, and whether Next or the caller's copy of an entry's data meets it. */
export interface TarStop {
  error: string
  during: 'next' | 'copy'
}

/** A tar header's size field: octal, or base-256 when the high bit is set. */
function tarSize(b: Buffer, off: number): number {
  if (b[off] & 0x80) {
    let n = b[off] & 0x7f
    for (let i = 1; i < 12; i++) n = n * 256 + b[off + i]
    return n
  }
  const t = b
    .toString('latin1', off, off + 12)
    .replace(/[\0 ]+$/g, '')
    .trim()
  return t === '' ? 0 : Number.parseInt(t, 8) || 0
}

const ZERO_BLOCK = Buffer.alloc(512)

/**
 * Go's tar reader's walk over a stream, block by block, without keeping it: where each header
 * is, the entry being read, and where the reader stops. A zero block then a zero block is the
 * end (nothing after it is read); a zero block then anything else is `invalid tar header`.
 * `push` says how much of a chunk the reader would read; `ending` what an early end means.
 */
export class TarWalk {
  /** `copyLimit`: how much of a regular file's data the caller copies (the rest Next skips). */
  constructor(private readonly copyLimit = Number.POSITIVE_INFINITY) {}

  private pos = 0
  private next = 0
  private readonly block = Buffer.alloc(512)
  private have = 0
  /** Offset of a first zero block, -1 before one. */
  private zeroAt = -1
  private last: { regular: boolean; size: number; dataStart: number; dataEnd: number } | null = null
  /** The data of a PAX header ('x' or 'g') being read: Go parses it whole before going on. */
  private pax: { global: boolean; chunks: Buffer[]; have: number; left: number } | null = null
  /** An 'x' header's records that mergePAX refuses: an error once the next header is read. */
  private paxMergeBad = false
  /** Set when the reader has stopped: at the end marker (error null) or on a bad block after a zero one. */
  stopped: { error: string | null } | null = null

  /**
   * Feeds bytes; returns what of them the reader takes, for the tar parser: data as it comes,
   * each header block once whole (its checksum rewritten when only Go's signed sum matches, which
   * Go accepts and the parser would not), nothing past the first zero block.
   */
  push(chunk: Buffer): Buffer[] {
    const out: Buffer[] = []
    // Pieces of the chunk that follow each other go out as one.
    const emit = (b: Buffer) => {
      const last = out[out.length - 1]
      if (last !== undefined && last.buffer === b.buffer && last.byteOffset + last.length === b.byteOffset)
        out[out.length - 1] = Buffer.from(last.buffer, last.byteOffset, last.length + b.length)
      else out.push(b)
    }
    let i = 0
    while (i < chunk.length && this.stopped === null) {
      if (this.pos < this.next) {
        const skip = Math.min(this.next - this.pos, chunk.length - i)
        if (this.zeroAt < 0) emit(chunk.subarray(i, i + skip))
        const pax = this.pax
        if (pax !== null && pax.left > 0) {
          const part = chunk.subarray(i, i + Math.min(skip, pax.left))
          pax.left -= part.length
          if (pax.have <= MAX_SPECIAL_FILE) pax.chunks.push(part)
          pax.have += part.length
          if (pax.have > MAX_SPECIAL_FILE) {
            this.stopped = { error: 'archive/tar: header field too long' }
            break
          }
          if (pax.left === 0) {
            this.pax = null
            const records = parsePax(Buffer.concat(pax.chunks).toString('latin1'))
            if (records === null) {
              this.stopped = { error: 'archive/tar: invalid tar header' }
              break
            }
            if (!pax.global) this.paxMergeBad = !paxMergeOk(records)
          }
        }
        this.pos += skip
        i += skip
        continue
      }
      const take = Math.min(512 - this.have, chunk.length - i)
      // A whole header in this chunk is read in place; one across chunks is put together.
      const whole = this.have === 0 && take === 512
      const block = whole ? chunk.subarray(i, i + 512) : this.block
      if (!whole) chunk.copy(this.block, this.have, i, i + take)
      this.have += take
      this.pos += take
      i += take
      if (this.have < 512) break
      this.have = 0
      this.next = this.pos
      const zero = block.equals(ZERO_BLOCK)
      if (this.zeroAt >= 0) {
        this.stopped = { error: zero ? null : 'archive/tar: invalid tar header' }
        break
      }
      if (!zero && !goHeaderOk(block)) {
        this.stopped = { error: 'archive/tar: invalid tar header' }
        break
      }
      const type = block[156]
      // The records of an 'x' header merge into the next real header (after any other 'x' and
      // GNU long name or link headers): refused there.
      const meta = type === 0x78 || type === 0x67 || type === 0x4c || type === 0x4b
      if (!zero && this.paxMergeBad && !meta) {
        this.stopped = { error: 'archive/tar: invalid tar header' }
        break
      }
      emit(goHeaderAsParsed(whole ? block : Buffer.from(block)))
      if (zero) {
        this.zeroAt = this.pos - 512
        continue
      }
      const size = HEADER_ONLY.has(type) ? 0 : tarSize(block, 124)
      if (type === 0x78 || type === 0x67) {
        this.pax = { global: type === 0x67, chunks: [], have: 0, left: size }
        if (size === 0) this.pax = null
      } else if (!meta) this.paxMergeBad = false
      this.last = {
        regular: type === 0x30 || type === 0,
        size,
        dataStart: this.pos,
        dataEnd: this.pos + size,
      }
      this.next = this.pos + size + ((512 - (size % 512)) % 512)
    }
    return out
  }

  /**
   * What Go's reader makes of the stream ending here: null for a clean end (at a header
   * boundary, or inside padding), else the error and where it comes: from Next (`unexpected EOF`
   * inside a header or an entry it skips; where the reader stopped) or from the caller's copy of a
   * regular file's data (`unexpected EOF`, within the first `copyLimit` bytes of that file).
   * `eofIsError`: the stream below ended early too (a cut gzip), so Go never sees a clean EOF.
   */
  ending(eofIsError: boolean): TarStop | null {
    if (this.stopped !== null)
      return this.stopped.error === null ? null : { error: this.stopped.error, during: 'next' }
    const next: TarStop = { error: 'unexpected EOF', during: 'next' }
    const clean = eofIsError ? next : null
    if (this.zeroAt >= 0) return this.have === 0 ? clean : next
    if (this.have > 0) return next
    const l = this.last
    if (l !== null && this.pos < l.dataEnd) {
      // The caller copies at most copyLimit bytes of a file; Next skips the rest.
      const copied = l.regular && this.pos < l.dataStart + this.copyLimit
      return copied ? { error: 'unexpected EOF', during: 'copy' } : next
    }
    // A cut gzip whose data ends exactly with a regular file's: flate hands over its last bytes
    // together with io.ErrUnexpectedEOF, so the caller's copy of that file fails, not Next.
    if (eofIsError && l?.regular && l.size > 0 && this.pos === l.dataEnd)
      return { error: 'unexpected EOF', during: 'copy' }
    return clean
  }
}

/** What strconv.ParseInt(…, 10, …) takes: an optional sign, then decimal digits only. */
const PARSE_INT_10 = /^[+-]?[0-9]+$/

/** archive/tar's maxSpecialFileSize: the most of a PAX header's data (or a GNU long name) read. */
const MAX_SPECIAL_FILE = 1 << 20

/**
 * archive/tar's parsePAX over a PAX header's data: records `LEN KEY=VALUE\n`, LEN the record's
 * decimal length (at least 5, within the data), a newline at its end, a key that is not empty and
 * holds no `=`, no NUL in the value of path, linkpath, uname and gname nor in any other key; GNU
 * sparse 0.0 offsets and sizes in turn, without commas. null where Go says ErrHeader; else the
 * records, the last of a key winning.
 */
export function parsePax(data: string): Map<string, string> | null {
  const records = new Map<string, string>()
  let sparse = 0
  let s = data
  while (s.length > 0) {
    const sp = s.indexOf(' ')
    if (sp < 0) return null
    const lenText = s.slice(0, sp)
    if (!PARSE_INT_10.test(lenText)) return null
    const n = Number(lenText)
    if (!Number.isSafeInteger(n) || n < 5 || n > s.length) return null
    const end = n - (lenText.length + 1)
    if (end <= 0) return null
    const rest = s.slice(sp + 1)
    if (rest[end - 1] !== '\n') return null
    const rec = rest.slice(0, end - 1)
    s = rest.slice(end)
    const eq = rec.indexOf('=')
    if (eq < 0) return null
    const k = rec.slice(0, eq)
    const v = rec.slice(eq + 1)
    if (k === '') return null
    if (['path', 'linkpath', 'uname', 'gname'].includes(k) ? v.includes('\0') : k.includes('\0')) return null
    if (k === 'GNU.sparse.offset' || k === 'GNU.sparse.numbytes') {
      if ((sparse % 2 === 0) !== (k === 'GNU.sparse.offset') || v.includes(',')) return null
      sparse++
    } else records.set(k, v)
  }
  return records
}

/** archive/tar's mergePAX: the numeric records (uid, gid, size; atime, ctime, mtime) parse, or ErrHeader. */
function paxMergeOk(records: Map<string, string>): boolean {
  const int64 = (v: string) => {
    if (!PARSE_INT_10.test(v)) return false
    const b = BigInt(v)
    return b >= -(1n << 63n) && b < 1n << 63n
  }
  for (const [k, v] of records) {
    if (v === '') continue
    if (k === 'uid' || k === 'gid' || k === 'size') {
      if (!int64(v)) return false
    } else if (k === 'atime' || k === 'ctime' || k === 'mtime') {
      const dot = v.indexOf('.')
      const secs = dot < 0 ? v : v.slice(0, dot)
      const frac = dot < 0 ? '' : v.slice(dot + 1)
      if (!int64(secs) || !/^[0-9]*$/.test(frac)) return false
    }
  }
  return true
}

/** parser.parseOctal's verdict: NULs and spaces trimmed, cut at a NUL, then ParseUint(…, 8, 64). */
function octal(b: Buffer, off: number, len: number): bigint | null {
  let t = b.toString('latin1', off, off + len).replace(/^[ \0]+|[ \0]+$/g, '')
  if (t === '') return 0n
  const nul = t.indexOf('\0')
  if (nul >= 0) t = t.slice(0, nul)
  if (!/^[0-7]+$/.test(t)) return null
  const v = BigInt(`0o${t}`)
  return v >> 64n === 0n ? v : null
}

/** parser.parseNumeric: base-256 when the high bit is set (overflow is an error), else octal. */
function numeric(b: Buffer, off: number, len: number): bigint | null {
  if ((b[off] & 0x80) === 0) return octal(b, off, len)
  const inv = b[off] & 0x40 ? 0xff : 0
  let x = 0n
  for (let i = 0; i < len; i++) {
    let c = b[off + i] ^ inv
    if (i === 0) c &= 0x7f
    if (x >> 56n > 0n) return null
    x = (x << 8n) | BigInt(c)
  }
  if (x >> 63n > 0n) return null
  return inv ? -x - 1n : x
}

/** The checksum field, and Go's two sums of the block (unsigned, signed). */
function checksums(b: Buffer): { value: bigint | null; unsigned: number; signed: number } {
  let unsigned = 0
  let signed = 0
  for (let i = 0; i < 512; i++) {
    const c = i >= 148 && i < 156 ? 0x20 : b[i]
    unsigned += c
    signed += c > 127 ? c - 256 : c
  }
  return { value: octal(b, 148, 8), unsigned, signed }
}

/** Types Go reads no data for: hard and symbolic links, devices, dirs, FIFOs. */
const HEADER_ONLY = new Set([0x31, 0x32, 0x33, 0x34, 0x35, 0x36])

/**
 * Whether Go's tar reader takes this (non-zero) block as a header: getFormat's checksum (either
 * sum), then readHeader's numeric fields (size, mode, uid, gid, mtime; devmajor and devminor past
 * V7; a STAR header's atime and ctime), then a negative size where data follows.
 */
function goHeaderOk(b: Buffer): boolean {
  const sum = checksums(b)
  if (sum.value === null || (sum.value !== BigInt(sum.unsigned) && sum.value !== BigInt(sum.signed)))
    return false
  const fields: [number, number][] = [
    [124, 12],
    [100, 8],
    [108, 8],
    [116, 8],
    [136, 12],
  ]
  const magic = b.toString('latin1', 257, 263)
  const star = magic === 'ustar\0' && b.toString('latin1', 508, 512) === 'tar\0'
  const gnu = magic === 'ustar ' && b.toString('latin1', 263, 265) === ' \0'
  if (magic === 'ustar\0' || gnu) fields.push([329, 8], [337, 8])
  if (star) fields.push([476, 12], [488, 12])
  for (const [off, len] of fields) if (numeric(b, off, len) === null) return false
  return (numeric(b, 124, 12) ?? 0n) >= 0n || HEADER_ONLY.has(b[156])
}

/**
 * A header as Go reads it, for the parser (in place): the unsigned checksum written in when only
 * Go's signed sum matches (old tars wrote that; the parser checks the unsigned one only), and a
 * size of 0 for the types Go reads no data for, whatever the field says.
 */
function goHeaderAsParsed(b: Buffer): Buffer {
  const headerOnly = HEADER_ONLY.has(b[156]) && numeric(b, 124, 12) !== 0n
  // Without a byte over 0x7f both sums are the same (the common case, checked natively).
  if (isAscii(b) && !headerOnly) return b
  if (headerOnly) b.write('00000000000\0', 124, 'latin1')
  const sum = checksums(b)
  if (sum.value !== BigInt(sum.unsigned))
    b.write(`${sum.unsigned.toString(8).padStart(6, '0')}\0 `, 148, 'latin1')
  return b
}

/** TarWalk over a whole stream. */
export function tarEnding(d: Buffer, eofIsError: boolean, copyLimit?: number): TarStop | null {
  const w = new TarWalk(copyLimit)
  w.push(d)
  return w.ending(eofIsError)
}
