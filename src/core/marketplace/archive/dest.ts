/**
 * Where entries land, as the endpoint writes them: safeJoin's escape rule, dirs 0755, files 0755
 * when any x bit is set else 0644, each cut at 128 MiB.
 */

import { closeSync, fchmodSync, openSync, writeSync } from 'node:fs'
import type { GoString } from '../../go/gostring.js'
import { EINVAL, PathError } from '../../go/os/errors.js'
import { nodePath } from '../../go/os/file.js'
import { mkdirAll as goMkdirAll } from '../../go/os/mkdirall.js'
import { join, rel } from '../../go/path/filepath/path.js'
import { ExtractError, osErr } from './errors.js'
import { MAX_EXTRACTED_FILE } from './limits.js'

/** safeJoin(base, name): Join then Rel; refused when Rel is `..` or starts with `../`. */
export function safeJoin(base: GoString, name: GoString): GoString | null {
  const target = join(base, name)
  const r = rel(base, target)
  if (!r.ok || r.value === '..' || r.value.startsWith('../')) return null
  return target
}

/** The dir one extraction writes into, and the dirs made or seen in it (MkdirAll of a known dir is a no-op). */
export class Dest {
  private readonly made: Set<GoString>
  constructor(readonly dir: GoString) {
    this.made = new Set([dir])
  }

  mkdirAll(p: GoString): void {
    if (this.made.has(p)) return
    const err = goMkdirAll(p, 0o755)
    if (err !== null) throw new ExtractError(err.error())
    this.made.add(p)
  }
}

export function dirOf(p: GoString): GoString {
  return p.slice(0, p.lastIndexOf('/')) || '/'
}

/**
 * os.OpenFile(target, O_RDWR|O_CREATE|O_TRUNC, perm): a name holding a NUL byte (a zip entry's
 * name may) is Go's EINVAL, where Node would throw a TypeError of its own.
 */
export function create(target: GoString, perm: number): number {
  const np = nodePath(target)
  if (np === null) throw new ExtractError(new PathError('open', target, EINVAL).error())
  try {
    return openSync(np, 'w', perm)
  } catch (e) {
    osErr(e, 'open', target)
  }
}

/** The endpoint's file mode: 0755 when any x bit is set, else 0644. */
export function filePerm(mode: number): number {
  return mode & 0o111 ? 0o755 : 0o644
}

/** writeFile: O_TRUNC, chmod 0755/0644, at most 128 MiB copied. */
export async function writeFile(target: GoString, data: AsyncIterable<Buffer>, mode: number): Promise<void> {
  const perm = filePerm(mode)
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
