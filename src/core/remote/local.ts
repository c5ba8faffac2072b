import { UserError } from '../errors.js'
import { type GoBytes, type GoString, toText } from '../go/gostring.js'
import { stat } from '../go/os/file.js'
import { abs, base } from '../go/path/filepath/path.js'
import { evalSymlinks } from '../go/path/filepath/symlink.js'
import type { LocalPack, LocalSkill } from './diff.js'

/**
 * The local side of `remote diff`: each dir given is a marketplace pack (a layout the upload
 * endpoint recognises: what the manager would install from it) or an allow-list root (the
 * subprocess skills the manager's boot would register from it, one registry over the roots in
 * order, builtins first: `builtins`, the skill keys of the release compared with).
 */
export async function localSide(
  dirs: GoBytes[],
  builtins: readonly GoString[],
): Promise<{ skills: LocalSkill[]; packs: LocalPack[] }> {
  const { detectContainer, loadPluginContainer } = await import('../marketplace/container.js')
  const { loadDirs } = await import('../loader/loader.js')
  const { Registry } = await import('../loader/registry.js')
  const { stagingBasename } = await import('../marketplace/install.js')
  const skills: LocalSkill[] = []
  const packs: LocalPack[] = []
  const walked: GoString[] = []
  for (const d of dirs) {
    // The bytes given (a name that is not UTF-8 is that dir, not Node's text of it).
    const text = toText(d)
    const a = abs(d)
    const dir = a.ok ? a.value : d
    const st = stat(dir)
    if (!st.ok || !st.value.isDir()) throw new UserError(`${text}: not a directory`)
    if (detectContainer(dir).kind !== '') {
      // As `remote push` uploads it: a pack with no manifest under its own folder's name (the
      // dir's, links resolved, as `marketplace pack` reads it), which the manager names it after.
      const real = evalSymlinks(dir)
      const stagingName = stagingBasename(base(real.ok ? real.value : dir))
      const l = await loadPluginContainer(dir, { stagingName })
      if (!l.ok) throw new UserError(`${text}: ${toText(l.err.error())}`)
      const p = l.result.pack
      packs.push({
        id: toText(p.id),
        displayName: toText(p.displayName),
        version: toText(p.version),
        manifestSha256: p.manifestSHA256,
        skills: l.result.skills.map((s) => toText(s.name)),
        path: text,
      })
    } else walked.push(dir) // the manager skips a relative dir; the repo's are meant
  }
  if (walked.length > 0) {
    const res = loadDirs(walked, { registry: new Registry(builtins), onEvent: () => {} })
    for (const s of res.skills) {
      skills.push({
        key: toText(s.key),
        description: toText(s.description),
        class: s.class,
        category: toText(s.category),
        path: toText(s.manifestPath),
      })
    }
  }
  return { skills, packs }
}
