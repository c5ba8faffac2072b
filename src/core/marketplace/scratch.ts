/**
 * The scratch dirs archives are extracted into (`marketplace check|verify ARCHIVE`, `pack`'s own
 * check of what it wrote). Each extraction gets `ongrid-skill-<pid>-<random>/` under a memory
 * file system when there is one (creating a thousand small files there costs a fraction of a
 * disk's), else the temp dir (a private one when the temp dir is not safe: `tempBase`); the tree goes in an `ongrid-pack-<random>` dir inside it (the
 * name the manager's staging dir has). Such a dir is removed
 * - by its extraction's cleanup, on every path that returns or throws;
 * - by `removeAllScratch`, which the CLI's stop-signal handler calls;
 * - after a kill -9, which nothing can handle, by the next extraction: a dir whose pid is no
 *   longer running (and that is ours: same uid) is removed before a new one is made
 *   (`reapStale`), so at most one interrupted extraction's files wait for the next run.
 */
import * as fs from 'node:fs'
import { join } from 'node:path'
import { checkSafeDir, tempBase } from '../user-dirs.js'

const PREFIX = 'ongrid-skill-'

/**
 * Where extractions may go, best first: /dev/shm when it is there, writable and as safe as a temp
 * dir must be (checkSafeDir: no other user can swap a dir of ours in it), then tempBase().
 */
export function scratchPlaces(): string[] {
  const dirs = [tempBase()]
  try {
    if (fs.statSync('/dev/shm').isDirectory()) {
      fs.accessSync('/dev/shm', fs.constants.W_OK)
      dirs.unshift(checkSafeDir('/dev/shm'))
    }
  } catch {}
  return dirs
}

/** Scratch dirs of this process not yet removed. */
const live = new Set<string>()

/** A fresh scratch dir under `place` (its own dir of this pid), and how to remove it. */
export function makeScratch(place: string): { dir: string; remove: () => void } {
  reapStale(place)
  const owner = fs.mkdtempSync(join(place, `${PREFIX}${process.pid}-`))
  live.add(owner)
  const remove = () => {
    if (!live.delete(owner)) return
    fs.rmSync(owner, { recursive: true, force: true })
  }
  try {
    return { dir: fs.mkdtempSync(join(owner, 'ongrid-pack-')), remove }
  } catch (e) {
    remove()
    throw e
  }
}

/** Removes every scratch dir of this process (for a stop signal's handler). */
export function removeAllScratch(): void {
  for (const d of live) {
    try {
      fs.rmSync(d, { recursive: true, force: true })
    } catch {}
  }
  live.clear()
}

/** Removes the scratch dirs under `place` left by processes of this user that have ended. */
export function reapStale(place: string): string[] {
  const reaped: string[] = []
  let names: string[]
  try {
    names = fs.readdirSync(place)
  } catch {
    return reaped
  }
  for (const name of names) {
    const m = /^ongrid-skill-(\d+)-[A-Za-z0-9]{6}$/.exec(name)
    if (m === null || Number(m[1]) === process.pid || running(Number(m[1]))) continue
    const p = join(place, name)
    try {
      const st = fs.lstatSync(p)
      if (!st.isDirectory() || st.uid !== process.getuid?.()) continue
      fs.rmSync(p, { recursive: true, force: true })
      reaped.push(p)
    } catch {}
  }
  return reaped
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    // EPERM: it runs, as another user.
    return (e as NodeJS.ErrnoException).code !== 'ESRCH'
  }
}
