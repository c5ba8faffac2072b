import type { GoString } from '../go/gostring.js'
import { type FileStat, stat } from '../go/os/file.js'

/**
 * The executor's entry checks after the path ones (subprocess.go: os.Stat, not a directory,
 * an execute bit), with its texts. `run` stops on the first; `lint` reports it as a finding.
 */
export type EntryPreflight =
  | { ok: true; info: FileStat }
  | { ok: false; kind: 'stat' | 'directory' | 'not-executable'; message: GoString }

export function entryPreflight(entry: GoString): EntryPreflight {
  const info = stat(entry)
  if (!info.ok)
    return { ok: false, kind: 'stat', message: `subprocess skill: stat ${entry}: ${info.err.error()}` }
  if (info.value.isDir())
    return { ok: false, kind: 'directory', message: `subprocess skill: entry ${entry} is a directory` }
  if ((info.value.mode & 0o111) === 0)
    return { ok: false, kind: 'not-executable', message: `subprocess skill: entry ${entry} not executable` }
  return { ok: true, info: info.value }
}

/** The executor's text when the entry cannot be started (cmd.Start's error, stderr still empty). */
export function startFailureMessage(key: GoString, entry: GoString, err: GoString): GoString {
  return `subprocess skill ${key}: start: fork/exec ${entry}: ${err} (stderr: )`
}
