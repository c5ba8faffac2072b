import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'

/** A file the CLI reads that is larger than it accepts (`/dev/zero` would be read for ever). */
export class TooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`larger than ${sizeText(limit)}`)
  }
}

/** A file expected to be a regular file that is not (a FIFO, a device). */
export class NotRegularError extends Error {
  constructor() {
    super('not a regular file')
  }
}

/** 64 MiB, 64 KiB, 100 B. */
export function sizeText(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`
  return `${n} B`
}

/**
 * Reads a whole file (or fd 0), at most `limit` bytes: a longer one is a TooLargeError as soon
 * as its limit+1st byte is read, so endless files (`/dev/zero`, `/dev/urandom`, a FIFO fed for
 * ever) cost `limit` bytes of memory, not all of it. Errors of the read itself are Node's.
 */
export function readFileBounded(
  path: string | Buffer | 0,
  limit: number,
  opts: { regularOnly?: boolean } = {},
): Buffer {
  // A file found rather than named (a config) is opened without waiting for a FIFO's writer.
  const fd =
    path === 0 ? 0 : openSync(path, opts.regularOnly ? constants.O_RDONLY | constants.O_NONBLOCK : 'r')
  try {
    if (opts.regularOnly && !fstatSync(fd).isFile()) throw new NotRegularError()
    const chunks: Buffer[] = []
    let size = 0
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, limit + 1 - size))
      let n: number
      try {
        n = readSync(fd, chunk, 0, chunk.length, null)
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10)
          continue
        }
        throw e
      }
      if (n === 0) break
      chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n))
      size += n
      if (size > limit) throw new TooLargeError(limit)
    }
    return Buffer.concat(chunks, size)
  } finally {
    if (fd !== 0) closeSync(fd)
  }
}

/**
 * A regular file's bytes, read into one buffer of the size fstat gives: opened without waiting (a
 * FIFO put where a file was never blocks), a NotRegularError when it is not regular, a
 * TooLargeError when it is over `limit` bytes (with `cut`, its first `limit` bytes instead). What
 * it grows by meanwhile is not read. Errors of the open and the read are Node's.
 */
export function readRegularSized(path: string | Buffer, limit: number, opts: { cut?: boolean } = {}): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
  try {
    const st = fstatSync(fd)
    if (!st.isFile()) throw new NotRegularError()
    if (st.size > limit && opts.cut !== true) throw new TooLargeError(limit)
    const data = Buffer.allocUnsafe(Math.min(st.size, limit))
    let got = 0
    while (got < data.length) {
      const n = readSync(fd, data, got, data.length - got, null)
      if (n === 0) break
      got += n
    }
    return got === data.length ? data : data.subarray(0, got)
  } finally {
    closeSync(fd)
  }
}
