/**
 * The upload's size limit (a MaxBytesReader over the whole multipart request, 64 MiB) and the
 * smallest request that carries a file: what `remote push` sends and what an upload can hold.
 */

/** The upload's size limit, and its error. */
export const MAX_UPLOAD = 64 << 20
export const UPLOAD_TOO_LARGE = 'parse upload: http: request body too large'

/**
 * A multipart request that carries a file as the field `file` named `filename`: the boundary
 * (one byte unless given), one header written as tersely as Go's parser takes it, the closing
 * boundary with no line end. What goes before and after the file's bytes.
 */
export function uploadFraming(filename: string, boundary = 'B'): { head: string; tail: string } {
  return {
    head: `--${boundary}\r\nContent-Disposition:form-data;name=file;filename=${minParam(filename)}\r\n\r\n`,
    tail: `\r\n--${boundary}--`,
  }
}

/** The size of that request for a file of `size` bytes: past 64 MiB, no client can upload it. */
export function minUploadRequest(size: number, filename: string, boundary = 'B'): number {
  const { head, tail } = uploadFraming(filename, boundary)
  return Buffer.byteLength(head) + size + Buffer.byteLength(tail)
}

/** A media-type parameter value: a bare token when it is one, else quoted with `"` and `\` escaped. */
function minParam(v: string): string {
  return /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(v) ? v : `"${v.replace(/["\\]/g, '\\$&')}"`
}
