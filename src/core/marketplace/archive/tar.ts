/**
 * A tar (or tar.gz) upload extracted as the endpoint does: the stream walked block by block as
 * Go's archive/tar walks it (where it stops, what an early end means), tar symlinks and specials
 * dropped. Nothing is held whole but the upload; what it expands to is streamed and counted.
 * tar-stream is imported here only, lazily.
 */

import { tarEnding as goTarEnding, type TarStop, TarWalk } from '../../go/archive/tar/reader.js'
import { fromText } from '../../go/gostring.js'
import { quote } from '../../go/strconv/quote.js'
import { type Dest, dirOf, safeJoin, writeFile } from './dest.js'
import { ExtractError } from './errors.js'
import { gzipHeader } from './gzip.js'
import { type Budget, EXTRACT_LIMITS, MAX_EXTRACTED_FILE, TooBig } from './limits.js'

/** The endpoint's text for where the tar reader stopped: Next's errors wrapped `tar: %w`, the copy's bare. */
function tarText(stop: TarStop | null): string | null {
  if (stop === null) return null
  return stop.during === 'next' ? `tar: ${stop.error}` : stop.error
}

/** The endpoint's text for a whole tar stream ending as `d` does (null: a clean end). */
export function tarEnding(d: Buffer, eofIsError: boolean): string | null {
  return tarText(goTarEnding(d, eofIsError, MAX_EXTRACTED_FILE))
}

export async function extractTar(buf: Buffer, dest: Dest, gz: boolean, budget: Budget): Promise<void> {
  const { extract } = await import('tar-stream')
  const bodyAt = gz ? gzipHeader(buf) : 0
  const walk = new TarWalk(MAX_EXTRACTED_FILE)
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
      const target = safeJoin(dest.dir, name)
      if (target === null) throw new ExtractError(`tar entry escapes archive root: ${quote(name)}`)
      if (h.type === 'directory') {
        dest.mkdirAll(target)
        entry.resume()
      } else if (h.type === 'file') {
        dest.mkdirAll(dirOf(target))
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
      const ending = tarText(walk.ending(cut))
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
  const ending = tarText(walk.ending(cut))
  if (ending !== null) throw new ExtractError(ending)
}
