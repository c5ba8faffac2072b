/**
 * The upload endpoint's archive handling (server/marketplace/upload.go, v0.13.4): the type from
 * the file name's suffix only, safeJoin's escape rule, zip and tar entries written as the
 * endpoint writes them (dirs 0755, files 0755 when any x bit is set else 0644, zip symlinks as
 * files, tar symlinks and specials dropped, 128 MiB cut), then descendSingleDir.
 * Readers as Go's: the tar stream walked block by block as archive/tar walks it (where it stops,
 * what an early end means), zip's directory and entries as archive/zip reads them (texts for
 * damaged archives). Nothing is held whole but the upload itself (at most 64 MiB, the endpoint's
 * limit): what it expands to is streamed, counted and stopped at limits of ours (a bomb).
 * tar-stream is imported here only, lazily.
 */

import { isAscii } from 'node:buffer'
import { closeSync, fchmodSync, openSync, statSync, writeSync } from 'node:fs'
import { UserError } from '../errors.js'
import { fromText, type GoString } from '../go/gostring.js'
import { EINVAL, fromNodeError, PathError, reasonText } from '../go/os/errors.js'
import { nodePath, readDirEntries } from '../go/os/file.js'
import { mkdirAll as goMkdirAll } from '../go/os/mkdirall.js'
import { join, rel } from '../go/path/filepath/path.js'
import { quote } from '../go/strconv/quote.js'
import { NotRegularError, readFileBounded, TooLargeError } from '../read-bounded.js'
import { makeScratch, scratchPlaces } from './scratch.js'

export const MAX_EXTRACTED_FILE = 128 << 20

export type ArchiveFormat = 'zip' | 'tar.gz' | 'tar'

/** extractArchive's choice: the lowercased name's suffix, .zip first. */
export function archiveFormat(filename: string): ArchiveFormat | null {
  const n = filename.toLowerCase()
  if (n.endsWith('.zip')) return 'zip'
  if (n.endsWith('.tar.gz') || n.endsWith('.tgz')) return 'tar.gz'
  if (n.endsWith('.tar')) return 'tar'
  return null
}

/** safeJoin(base, name): Join then Rel; refused when Rel is `..` or starts with `../`. */
export function safeJoin(base: GoString, name: GoString): GoString | null {
  const target = join(base, name)
  const r = rel(base, target)
  if (!r.ok || r.value === '..' || r.value.startsWith('../')) return null
  return target
}

export interface Extracted {
  /** The temp dir everything was extracted into (byte string; remove with cleanup). */
  dest: GoString
  /** The pack root: dest, or its single top-level dir (byte string). */
  root: GoString
  /** Whether descendSingleDir went into a top-level folder. */
  descended: boolean
  cleanup: () => void
}

export type ExtractResult =
  | { ok: true; value: Extracted }
  /**
   * `error` is the handler's error after `invalid argument\n`; `exact` false when it is ours;
   * `ours` when it is no refusal of the manager's but a limit of ours (a bomb: not extracted).
   */
  | { ok: false; error: GoString; exact: boolean; ours?: boolean }

class ExtractError extends Error {
  constructor(
    readonly goText: GoString,
    readonly exact = true,
  ) {
    super(goText)
  }
}

function osErr(e: unknown, op: string, p: GoString): never {
  throw new ExtractError(fromNodeError(e, op, p).error())
}

/** Dirs made or seen during this extraction (MkdirAll of a known dir is a no-op). */
let madeDirs = new Set<GoString>()

function mkdirAll(p: GoString): void {
  if (madeDirs.has(p)) return
  const err = goMkdirAll(p, 0o755)
  if (err !== null) throw new ExtractError(err.error())
  madeDirs.add(p)
}

/**
 * os.OpenFile(target, O_RDWR|O_CREATE|O_TRUNC, perm): a name holding a NUL byte (a zip entry's
 * name may) is Go's EINVAL, where Node would throw a TypeError of its own.
 */
function create(target: GoString, perm: number): number {
  const np = nodePath(target)
  if (np === null) throw new ExtractError(new PathError('open', target, EINVAL).error())
  try {
    return openSync(np, 'w', perm)
  } catch (e) {
    osErr(e, 'open', target)
  }
}

/** writeFile: O_TRUNC, chmod 0755/0644, at most 128 MiB copied. */
async function writeFile(target: GoString, data: AsyncIterable<Buffer>, mode: number): Promise<void> {
  const perm = mode & 0o111 ? 0o755 : 0o644
  const fd = create(target, perm)
  try {
    fchmodSync(fd, perm)
    let left = MAX_EXTRACTED_FILE
    for await (const chunk of data) {
      if (left <= 0) continue
      const part = chunk.length > left ? chunk.subarray(0, left) : chunk
      writeSync(fd, part)
      left -= part.length
    }
  } finally {
    closeSync(fd)
  }
}

function dirOf(p: GoString): GoString {
  return p.slice(0, p.lastIndexOf('/')) || '/'
}

/**
 * The gzip header as Go's compress/gzip reads it, up front: its errors (`gzip: EOF`,
 * `gzip: unexpected EOF`, `gzip: invalid header`); returns where the deflate data starts.
 */
function gzipHeader(buf: Buffer): number {
  if (buf.length === 0) throw new ExtractError('gzip: EOF')
  if (buf.length < 10) throw new ExtractError('gzip: unexpected EOF')
  if (buf[0] !== 0x1f || buf[1] !== 0x8b || buf[2] !== 8) throw new ExtractError('gzip: gzip: invalid header')
  const flg = buf[3]
  let p = 10
  const need = (n: number) => {
    if (p + n > buf.length) throw new ExtractError('gzip: unexpected EOF')
  }
  if (flg & 4) {
    need(2)
    const n = buf.readUInt16LE(p)
    p += 2
    need(n)
    p += n
  }
  for (const bit of [8, 16]) {
    if (flg & bit) {
      const end = buf.indexOf(0, p)
      if (end < 0) throw new ExtractError('gzip: unexpected EOF')
      p = end + 1
    }
  }
  if (flg & 2) need(2)
  return flg & 2 ? p + 2 : p
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
            this.stopped = { error: 'tar: archive/tar: header field too long' }
            break
          }
          if (pax.left === 0) {
            this.pax = null
            const records = parsePax(Buffer.concat(pax.chunks).toString('latin1'))
            if (records === null) {
              this.stopped = { error: 'tar: archive/tar: invalid tar header' }
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
        this.stopped = { error: zero ? null : 'tar: archive/tar: invalid tar header' }
        break
      }
      if (!zero && !goHeaderOk(block)) {
        this.stopped = { error: 'tar: archive/tar: invalid tar header' }
        break
      }
      const type = block[156]
      // The records of an 'x' header merge into the next real header (after any other 'x' and
      // GNU long name or link headers): refused there.
      const meta = type === 0x78 || type === 0x67 || type === 0x4c || type === 0x4b
      if (!zero && this.paxMergeBad && !meta) {
        this.stopped = { error: 'tar: archive/tar: invalid tar header' }
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
   * boundary, or inside padding), else its error (`tar: unexpected EOF` inside a header or an
   * entry it skips; a bare `unexpected EOF` inside a regular file's data, which the endpoint
   * copies). `eofIsError`: the stream below ended early too (a cut gzip), so Go never sees a
   * clean EOF.
   */
  ending(eofIsError: boolean): string | null {
    if (this.stopped !== null) return this.stopped.error
    const clean = eofIsError ? 'tar: unexpected EOF' : null
    if (this.zeroAt >= 0) return this.have === 0 ? clean : 'tar: unexpected EOF'
    if (this.have > 0) return 'tar: unexpected EOF'
    const l = this.last
    if (l !== null && this.pos < l.dataEnd) {
      // The endpoint copies at most 128 MiB of a file; Next skips the rest.
      const copied = l.regular && this.pos < l.dataStart + MAX_EXTRACTED_FILE
      return copied ? 'unexpected EOF' : 'tar: unexpected EOF'
    }
    // A cut gzip whose data ends exactly with a regular file's: flate hands over its last bytes
    // together with io.ErrUnexpectedEOF, so the endpoint's copy of that file fails, not Next.
    if (eofIsError && l?.regular && l.size > 0 && this.pos === l.dataEnd) return 'unexpected EOF'
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
export function tarEnding(d: Buffer, eofIsError: boolean): string | null {
  const w = new TarWalk()
  w.push(d)
  return w.ending(eofIsError)
}

/** Stops an extraction that grows past what we are willing to write (limits of ours, not the manager's). */
class TooBig extends ExtractError {
  constructor(what: string) {
    super(`${what}; not extracted further${OURS_LIMIT}`, false)
  }
}

const OURS_LIMIT =
  " (a limit of ongrid-skill's, not the manager's: the upload endpoint has no total limit and writes it all, each file cut at 128 MiB)"

/** How much an archive may expand to, and how many entries it may hold, before we stop. */
export const EXTRACT_LIMITS = { bytes: 1 << 30, entries: 100_000 }

function sizeText(n: number): string {
  return n >= 1 << 30 && n % (1 << 30) === 0 ? `${n / (1 << 30)} GiB` : `${Math.round(n / (1 << 20))} MiB`
}

class Budget {
  bytes = 0
  entries = 0
  add(n: number): void {
    this.bytes += n
    if (this.bytes > EXTRACT_LIMITS.bytes)
      throw new TooBig(`the archive expands past ${sizeText(EXTRACT_LIMITS.bytes)}`)
  }
  entry(): void {
    if (++this.entries > EXTRACT_LIMITS.entries)
      throw new TooBig(`the archive holds more than ${EXTRACT_LIMITS.entries} entries`)
  }
}

async function extractTar(buf: Buffer, dest: GoString, gz: boolean, budget: Budget): Promise<void> {
  const { extract } = await import('tar-stream')
  const bodyAt = gz ? gzipHeader(buf) : 0
  const walk = new TarWalk()
  const ex = extract({ filenameEncoding: 'latin1', allowUnknownFormat: true } as never)
  const exEnd = () => (ex as unknown as { end: () => void }).end()
  let sourceError = null as ExtractError | null
  let cut = false
  let stopFeed = () => {}
  // The walk sees every byte in order as it comes (events, not an iterator: data before an error
  // is never dropped); the parser gets what Go's reader would read, paused while it is behind.
  // A sound gzip of at most 16 MiB (nearly every pack) is decoded at once; anything else, as a stream.
  let whole: Buffer | null = gz ? null : buf
  if (gz) {
    const { gunzipSync } = await import('node:zlib')
    try {
      whole = gunzipSync(buf, { maxOutputLength: Math.min(16 << 20, EXTRACT_LIMITS.bytes) })
    } catch {}
  }
  const fed = new Promise<void>((resolve) => {
    if (whole !== null) {
      for (const part of walk.push(whole)) ex.write(part)
      exEnd()
      resolve()
      return
    }
    import('node:zlib').then(({ createGunzip, createInflateRaw }) => {
      const g = createGunzip()
      let done = false
      const finish = (destroy: boolean) => {
        if (done) return
        done = true
        if (destroy) g.destroy()
        again?.destroy()
        if (sourceError instanceof TooBig) ex.destroy(sourceError)
        else exEnd()
        resolve()
      }
      stopFeed = () => finish(true)
      let seen = 0
      let again: import('node:stream').Transform | null = null
      const take = (chunk: Buffer, from: import('node:stream').Transform): boolean => {
        if (done) return false
        try {
          budget.add(chunk.length)
        } catch (e) {
          sourceError = e as ExtractError
          finish(true)
          return false
        }
        seen += chunk.length
        let full = false
        for (const part of walk.push(chunk)) full = !ex.write(part) || full
        if (walk.stopped !== null) {
          finish(true)
          return false
        }
        if (full) {
          from.pause()
          ex.once('drain', () => from.resume())
        }
        return true
      }
      g.on('data', (chunk: Buffer) => take(chunk, g))
      g.on('end', () => finish(false))
      g.on('error', (e) => {
        if (done) return
        // A cut stream: Go's tar reader sees io.ErrUnexpectedEOF wherever it reads next.
        if (/unexpected end of file/.test(e.message)) {
          cut = true
          return finish(false)
        }
        const failed = new ExtractError(`gzip: ${e.message}`, false)
        // zlib drops the output of the call that fails. Go hands every byte over first, and its
        // tar reader may stop before it reaches the damage (in padding, a bad trailer): the rest
        // again, in small pieces, without the trailer's checks. The parser gets it only if the
        // reader stops within it; else the error stands (Go's tar reader reads on into the damage).
        const a = createInflateRaw({ chunkSize: 64 })
        again = a
        let skip = seen
        const held: Buffer[] = []
        a.on('data', (c: Buffer) => {
          if (done) return
          const rest = skip >= c.length ? null : c.subarray(skip)
          skip = Math.max(0, skip - c.length)
          if (rest === null) return
          try {
            budget.add(rest.length)
          } catch (err) {
            sourceError = err as ExtractError
            return finish(true)
          }
          held.push(...walk.push(rest))
          if (walk.stopped !== null) {
            for (const part of held) ex.write(part)
            finish(true)
          }
        })
        a.on('error', () => {})
        a.on('close', () => {
          if (done) return
          sourceError = failed
          finish(false)
        })
        a.end(buf.subarray(bodyAt))
      })
      g.end(buf)
    })
  })
  try {
    for await (const entry of ex) {
      budget.entry()
      const h = entry.header
      // Names from ustar/GNU headers come as bytes (latin1); a PAX path record is decoded as UTF-8.
      const name = (h as { pax?: { path?: string } }).pax?.path !== undefined ? fromText(h.name) : h.name
      const target = safeJoin(dest, name)
      if (target === null) throw new ExtractError(`tar entry escapes archive root: ${quote(name)}`)
      if (h.type === 'directory') {
        mkdirAll(target)
        entry.resume()
      } else if (h.type === 'file') {
        mkdirAll(dirOf(target))
        await writeFile(target, entry as AsyncIterable<Buffer>, h.mode ?? 0)
      } else {
        entry.resume()
      }
    }
  } catch (e) {
    stopFeed()
    if (e instanceof ExtractError) throw e
    await fed
    if (sourceError !== null) throw sourceError
    const msg = (e as Error).message
    if (/Unexpected end of data/.test(msg)) {
      const ending = walk.ending(cut)
      if (ending === null) return
      throw new ExtractError(ending)
    }
    if (/Invalid tar header/.test(msg)) throw new ExtractError('tar: archive/tar: invalid tar header')
    throw new ExtractError(`tar: ${msg}`, false)
  } finally {
    stopFeed()
    ex.destroy()
  }
  await fed
  if (sourceError !== null) throw sourceError
  // Where the reader stopped (the end marker, or a bad block after a zero one), or where the
  // stream ended before that; a cut gzip is an error wherever it ends.
  const ending = walk.ending(cut)
  if (ending !== null) throw new ExtractError(ending)
}

/** zip FileHeader.Mode(): the unix or MS-DOS attributes by creator, ModeDir for a `/` name. */
export function zipMode(
  versionMadeBy: number,
  externalAttrs: number,
  name: GoString,
): { perm: number; dir: boolean } {
  const creator = versionMadeBy >> 8
  let perm = 0
  let dir = false
  if (creator === 3 || creator === 19) {
    const m = externalAttrs >>> 16
    perm = m & 0o777
    dir = (m & 0o170000) === 0o040000
  } else if (creator === 0 || creator === 11 || creator === 14) {
    if (externalAttrs & 0x10) {
      dir = true
      perm = 0o777
    } else perm = externalAttrs & 0x01 ? 0o444 : 0o666
  }
  if (name.endsWith('/')) dir = true
  return { perm, dir }
}

const ZIP_FORMAT = 'zip: not a valid zip file'

let crcTable: Int32Array | null = null

/** CRC-32 (IEEE), continued from `crc`. */
function crc32(crc: number, b: Buffer): number {
  if (crcTable === null) {
    crcTable = new Int32Array(256)
    for (let n = 0; n < 256; n++) {
      let c = n
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
      crcTable[n] = c
    }
  }
  let c = ~crc
  for (let i = 0; i < b.length; i++) c = crcTable[(c ^ b[i]) & 0xff] ^ (c >>> 8)
  return ~c >>> 0
}

/** What archive/zip's File.Open and its checksum reader need from the central directory. */
interface ZipEntryInfo {
  headerOffset: number
  method: number
  flags: number
  crc32: number
  compressedSize: number
  uncompressedSize: number
}

/**
 * An entry's content as the endpoint copies it: File.Open (the local header's signature, the
 * method: store or deflate; before the file is created), then at most 128 MiB read through Go's checksum reader. Errors are
 * Go's: `zip: not a valid zip file` (no local header, or more data than the directory says),
 * `zip: unsupported compression algorithm`, `EOF` (a local header past the end of the file),
 * `unexpected EOF` (data short of its size, a missing data descriptor), `zip: checksum error`
 * (checked only when the copy reaches the end of the data). A corrupt deflate stream gives
 * zlib's words, not flate's.
 */
function zipOpen(buf: Buffer, e: ZipEntryInfo): number {
  const at = e.headerOffset
  // A base offset can take it below 0: os.File.ReadAt's error names the manager's temp file.
  if (at < 0) throw new ExtractError('readat ongrid-upload: negative offset', false)
  if (at + 30 > buf.length) throw new ExtractError('EOF')
  if (buf.readUInt32LE(at) !== 0x04034b50) throw new ExtractError(ZIP_FORMAT)
  const body = at + 30 + buf.readUInt16LE(at + 26) + buf.readUInt16LE(at + 28)
  if (e.method !== 0 && e.method !== 8) throw new ExtractError('zip: unsupported compression algorithm')
  return body
}

/** The copy of an opened entry (its data at `body`), through the checksum reader. */
async function zipCopy(
  buf: Buffer,
  e: ZipEntryInfo,
  body: number,
  sink: (chunk: Buffer) => void,
): Promise<void> {
  const section = buf.subarray(Math.min(body, buf.length), Math.min(body + e.compressedSize, buf.length))
  let nread = 0
  let crc = 0
  let left = MAX_EXTRACTED_FILE
  /** Takes one chunk; true once the endpoint's copy has all it will read. */
  const take = (c: Buffer): boolean => {
    const part = c.length > left ? c.subarray(0, left) : c
    nread += part.length
    if (nread > e.uncompressedSize) throw new ExtractError(ZIP_FORMAT)
    crc = crc32(crc, part)
    sink(part)
    left -= part.length
    return left === 0
  }
  if (e.method === 0) {
    for (let p = 0; p < section.length; p += 1 << 20) if (take(section.subarray(p, p + (1 << 20)))) return
  } else {
    const { createInflateRaw } = await import('node:zlib')
    const z = createInflateRaw()
    const full = await new Promise<boolean>((resolve, reject) => {
      z.on('data', (c: Buffer) => {
        try {
          if (take(c)) {
            z.destroy()
            resolve(true)
          }
        } catch (err) {
          z.destroy()
          reject(err)
        }
      })
      z.on('end', () => resolve(false))
      z.on('error', (err) =>
        reject(
          /unexpected end of file/.test(err.message)
            ? new ExtractError('unexpected EOF')
            : new ExtractError(`flate: ${err.message}`, false),
        ),
      )
      z.end(section)
    })
    if (full) return
  }
  // The data's end, before the copy's limit: sizes, then the checksums.
  if (nread !== e.uncompressedSize) throw new ExtractError('unexpected EOF')
  if (e.flags & 8) {
    const d = body + e.compressedSize
    const desc = buf.subarray(Math.min(d, buf.length), Math.min(d + 16, buf.length))
    const sig = desc.length >= 4 && desc.readUInt32LE(0) === 0x08074b50
    if (desc.length < (sig ? 16 : 12)) throw new ExtractError('unexpected EOF')
    if (desc.readUInt32LE(sig ? 4 : 0) !== e.crc32 >>> 0) throw new ExtractError('zip: checksum error')
    if (crc !== e.crc32 >>> 0) throw new ExtractError('zip: checksum error')
  } else if (e.crc32 !== 0 && crc !== e.crc32 >>> 0) throw new ExtractError('zip: checksum error')
}

/** writeFile for a zip entry: O_TRUNC, chmod 0755/0644, then the copy (bytes counted). */
async function writeZipEntry(
  target: GoString,
  buf: Buffer,
  e: ZipEntryInfo,
  mode: number,
  budget: Budget,
): Promise<void> {
  const perm = mode & 0o111 ? 0o755 : 0o644
  const body = zipOpen(buf, e)
  const fd = create(target, perm)
  try {
    fchmodSync(fd, perm)
    await zipCopy(buf, e, body, (c) => {
      budget.add(c.length)
      writeSync(fd, c)
    })
  } finally {
    closeSync(fd)
  }
}

/** A central directory entry: what File.Open, the checksum reader and FileInfo need. */
interface ZipDirEntry extends ZipEntryInfo {
  name: GoString
  creatorVersion: number
  externalAttrs: number
}

const u64 = (b: Buffer, at: number): number => Number(b.readBigUInt64LE(at))

/**
 * zip.OpenReader's reading of the archive (Go 1.19's archive/zip): the end record searched in the
 * last 1 KiB then 65 KiB, the zip64 locator and end record, the base offset, then every directory
 * header up to the first that does not read, and the count compared in 16 bits. Errors come
 * prefixed `open zip: ` as the endpoint wraps them.
 */
function readZipDirectory(buf: Buffer): ZipDirEntry[] {
  const size = buf.length
  const fail = (text: string, exact = true): never => {
    throw new ExtractError(`open zip: ${text}`, exact)
  }
  let endAt = -1
  for (const want of [1024, 65 * 1024]) {
    const len = Math.min(want, size)
    const start = size - len
    for (let i = len - 22; i >= 0; i--) {
      const q = start + i
      if (buf[q] === 0x50 && buf[q + 1] === 0x4b && buf[q + 2] === 5 && buf[q + 3] === 6) {
        if (buf.readUInt16LE(q + 20) + 22 + i <= len) {
          endAt = q
          break
        }
      }
    }
    if (endAt >= 0 || len === size) break
  }
  if (endAt < 0) fail(ZIP_FORMAT)
  let records = buf.readUInt16LE(endAt + 10)
  let dirSize = buf.readUInt32LE(endAt + 12)
  let dirOffset = buf.readUInt32LE(endAt + 16)
  if (records === 0xffff || dirSize === 0xffff || dirOffset === 0xffffffff) {
    const loc = endAt - 20
    if (loc >= 0 && buf.readUInt32LE(loc) === 0x07064b50 && buf.readUInt32LE(loc + 4) === 0) {
      const p = buf.readBigUInt64LE(loc + 8)
      if (buf.readUInt32LE(loc + 16) === 1) {
        if (p > BigInt(Number.MAX_SAFE_INTEGER)) fail('readat: negative offset', false)
        const at = Number(p)
        if (at + 56 > size) fail('EOF')
        if (buf.readUInt32LE(at) !== 0x06064b50) fail(ZIP_FORMAT)
        records = u64(buf, at + 32)
        dirSize = u64(buf, at + 40)
        dirOffset = u64(buf, at + 48)
        endAt = at
      }
    }
  }
  let base = endAt - dirSize - dirOffset
  if (base + dirOffset < 0 || base + dirOffset >= size) fail(ZIP_FORMAT)
  const files: ZipDirEntry[] = []
  let pos = base + dirOffset
  let stop: string
  for (;;) {
    // readDirectoryHeader: ErrFormat or ErrUnexpectedEOF end the directory; io.EOF is returned.
    if (pos >= size) fail('EOF')
    if (size - pos < 46) {
      stop = 'unexpected EOF'
    } else if (buf.readUInt32LE(pos) !== 0x02014b50) {
      stop = ZIP_FORMAT
    } else {
      const h = pos
      const nameLen = buf.readUInt16LE(h + 28)
      const extraLen = buf.readUInt16LE(h + 30)
      const varLen = nameLen + extraLen + buf.readUInt16LE(h + 32)
      if (varLen > 0 && h + 46 === size) fail('EOF')
      if (size - (h + 46) < varLen) stop = 'unexpected EOF'
      else {
        const e: ZipDirEntry = {
          name: buf.toString('latin1', h + 46, h + 46 + nameLen),
          creatorVersion: buf.readUInt16LE(h + 4),
          flags: buf.readUInt16LE(h + 8),
          method: buf.readUInt16LE(h + 10),
          crc32: buf.readUInt32LE(h + 16),
          compressedSize: buf.readUInt32LE(h + 20),
          uncompressedSize: buf.readUInt32LE(h + 24),
          externalAttrs: buf.readUInt32LE(h + 38),
          headerOffset: buf.readUInt32LE(h + 42),
        }
        let needU = e.uncompressedSize === 0xffffffff
        let needC = e.compressedSize === 0xffffffff
        let needO = e.headerOffset === 0xffffffff
        let bad = false
        let x = h + 46 + nameLen
        const xEnd = x + extraLen
        while (xEnd - x >= 4) {
          const tag = buf.readUInt16LE(x)
          const n = buf.readUInt16LE(x + 2)
          x += 4
          if (xEnd - x < n) break
          if (tag === 1) {
            let f = x
            for (const need of ['u', 'c', 'o'] as const) {
              const on = need === 'u' ? needU : need === 'c' ? needC : needO
              if (!on) continue
              if (x + n - f < 8) {
                bad = true
                break
              }
              const v = u64(buf, f)
              f += 8
              if (need === 'u') {
                e.uncompressedSize = v
                needU = false
              } else if (need === 'c') {
                e.compressedSize = v
                needC = false
              } else {
                e.headerOffset = v
                needO = false
              }
            }
            if (bad) break
          }
          x += n
        }
        if (bad || needC || needO) stop = ZIP_FORMAT
        else {
          pos = h + 46 + varLen
          e.headerOffset += base
          files.push(e)
          continue
        }
      }
    }
    // A first header that does not read at the base offset is tried again from the file's start.
    if (stop === ZIP_FORMAT && base !== 0 && files.length === 0) {
      base = 0
      pos = dirOffset
      continue
    }
    break
  }
  if (files.length % 65536 !== records % 65536) fail(stop)
  return files
}

async function extractZip(buf: Buffer, dest: GoString, budget: Budget): Promise<void> {
  for (const f of readZipDirectory(buf)) {
    const target = safeJoin(dest, f.name)
    if (target === null) throw new ExtractError(`zip entry escapes archive root: ${quote(f.name)}`)
    budget.entry()
    const { perm, dir } = zipMode(f.creatorVersion, f.externalAttrs, f.name)
    if (dir) {
      mkdirAll(target)
      continue
    }
    mkdirAll(dirOf(target))
    await writeZipEntry(target, buf, f, perm, budget)
  }
}

/** The upload's size limit (a MaxBytesReader over the whole multipart request), and its error. */
export const MAX_UPLOAD = 64 << 20
export const UPLOAD_TOO_LARGE = 'parse upload: http: request body too large'

/**
 * The smallest multipart request that carries a file as the field `file` named `filename`: a
 * one-byte boundary, one header written as tersely as Go's parser takes it, the closing boundary
 * with no line end. What goes before and after the file's bytes.
 */
export function uploadFraming(filename: string): { head: string; tail: string } {
  return {
    head: `--B\r\nContent-Disposition:form-data;name=file;filename=${minParam(filename)}\r\n\r\n`,
    tail: '\r\n--B--',
  }
}

/** The size of that request for a file of `size` bytes: past 64 MiB, no client can upload it. */
export function minUploadRequest(size: number, filename: string): number {
  const { head, tail } = uploadFraming(filename)
  return Buffer.byteLength(head) + size + Buffer.byteLength(tail)
}

/** A media-type parameter value: a bare token when it is one, else quoted with `"` and `\` escaped. */
function minParam(v: string): string {
  return /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(v) ? v : `"${v.replace(/["\\]/g, '\\$&')}"`
}

/**
 * Extracts `file` into a fresh `ongrid-pack-*` dir as the upload endpoint does, and descends.
 * `file` is a Buffer when its name is not UTF-8; `filename` is then its name as text.
 */
export async function extractUpload(file: string | Buffer, filename = String(file)): Promise<ExtractResult> {
  const format = archiveFormat(filename.slice(filename.lastIndexOf('/') + 1))
  const base = filename.slice(filename.lastIndexOf('/') + 1)
  if (format === null) {
    return {
      ok: false,
      error: `unsupported archive ${quote(base)} (need .zip / .tar.gz / .tgz / .tar)`,
      exact: true,
    }
  }
  let size: number
  try {
    size = statSync(file).size
  } catch (e) {
    throw new ExtractError(fromNodeError(e, 'stat', fromText(filename)).error())
  }
  if (minUploadRequest(size, base) > MAX_UPLOAD) {
    // ParseMultipartForm under the 64 MiB MaxBytesReader: no client can send it.
    return { ok: false, error: UPLOAD_TOO_LARGE, exact: true }
  }
  // At most 64 MiB: read whole; what it expands to is streamed and counted. A FIFO or a device
  // (its size says nothing) is not read: it would block, or never end.
  let buf: Buffer
  try {
    buf = readFileBounded(file, MAX_UPLOAD, { regularOnly: true })
  } catch (e) {
    if (e instanceof TooLargeError) return { ok: false, error: UPLOAD_TOO_LARGE, exact: true }
    // Ours to say, not the endpoint's (no client sends a FIFO): one line, exit 2.
    if (e instanceof NotRegularError)
      throw new UserError(`${filename}: not a regular file (a FIFO or device; give a pack dir or an archive)`)
    throw new UserError(`${filename}: ${reasonText(e)}`)
  }
  const places = scratchPlaces()
  for (let i = 0; i < places.length; i++) {
    const { dir: destText, remove: cleanup } = makeScratch(places[i])
    const dest = fromText(destText)
    madeDirs = new Set([dest])
    try {
      const budget = new Budget()
      if (format === 'zip') await extractZip(buf, dest, budget)
      else await extractTar(buf, dest, format === 'tar.gz', budget)
    } catch (e) {
      cleanup()
      // A full memory file system: try the next place.
      if (e instanceof ExtractError && / no space left on device$/.test(e.goText) && i + 1 < places.length)
        continue
      if (e instanceof TooBig) return { ok: false, error: e.goText, exact: false, ours: true }
      if (e instanceof ExtractError) return { ok: false, error: e.goText, exact: e.exact }
      throw e
    }
    const root = descendSingleDir(dest)
    return { ok: true, value: { dest, root, descended: root !== dest, cleanup } }
  }
  throw new Error('unreachable')
}

/** descendSingleDir: the single entry when it is a real directory (byte strings). */
export function descendSingleDir(dir: GoString): GoString {
  const ents = readDirEntries(dir, (n) => join(dir, n))
  if (!ents.ok || ents.value.length !== 1 || !ents.value[0][1].isDir()) return dir
  return join(dir, ents.value[0][0])
}
