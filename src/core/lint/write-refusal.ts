/**
 * Files the user has that ongrid-skill rewrites in place (`lint --fix`, `lint --update-baseline`
 * and `--prune-baseline`) are written only when they are theirs alone to change: never through a
 * link — a symlink (its target may be outside the repository) or a second hard link (the other
 * name, outside the pack, would change too) — and never when read-only (no write bit at all: the
 * user's way of saying "leave it"). Anything else is refused in one line; nothing is written.
 */
import type { Stats } from 'node:fs'

/** Why the file of `st` (taken by lstat) is not rewritten, or null when it may be. */
export function writeRefusal(st: Pick<Stats, 'isSymbolicLink' | 'isFile' | 'nlink' | 'mode'>): string | null {
  if (st.isSymbolicLink()) return 'is a symlink, and ongrid-skill never writes through a link'
  if (!st.isFile()) return 'is not a regular file'
  if (st.nlink > 1)
    return `has ${st.nlink} hard links, and ongrid-skill never writes through a link (the other names would change too)`
  if ((st.mode & 0o222) === 0)
    return `is read-only (mode ${(st.mode & 0o7777).toString(8).padStart(4, '0')}), and ongrid-skill leaves it so`
  return null
}
