/**
 * The one glob compiler, gitignore's syntax (Node 20 has neither fs.glob nor
 * path.matchesGlob), for `.ongrid-skill.yaml`'s `ignore:` (globToRegExp) and `marketplace pack
 * --exclude` (excludeTest). Paths and globs use `/`. `*` is any characters but `/`, `?` one
 * character but `/`, `**` as a whole segment any number of segments, none included (elsewhere
 * it is `*`, as in .gitignore); everything else is literal. A leading `./` or `/` is dropped:
 * globs are relative to the config file's dir, or the pack root (fromRoot).
 */
function globSource(glob: string): string {
  const segments = glob.split('/')
  let re = ''
  segments.forEach((seg, i) => {
    const last = i === segments.length - 1
    if (seg === '**') {
      re += last ? '.*' : '(?:[^/]*/)*'
      return
    }
    for (const ch of seg) {
      if (ch === '*') re += '[^/]*'
      else if (ch === '?') re += '[^/]'
      else re += ch.replace(/[\\^$.+()|{}[\]]/g, '\\$&')
    }
    if (!last) re += '/'
  })
  return re
}

/** A glob without its leading `./` or `/`. */
function fromRoot(glob: string): string {
  return glob.replace(/^\.\//, '').replace(/^\/+/, '')
}

/**
 * An `ignore:` pattern: a path from the config file's dir (a trailing `/` is dropped); it also
 * matches everything under a dir it matches (`vendor` and `vendor/**` both ignore
 * `vendor/x/skill.json`).
 */
export function globToRegExp(pattern: string): RegExp {
  let p = fromRoot(pattern.trim())
  if (p.endsWith('/')) p = p.slice(0, -1)
  return new RegExp(`^${globSource(p)}(?:/.*)?$`)
}

/** Whether `path` (relative, `/`-separated) matches any of the patterns. */
export function matchesAny(path: string, patterns: readonly RegExp[]): boolean {
  return patterns.some((re) => re.test(path))
}

/**
 * A --exclude glob as a test on a `/`-separated path under the pack, as .gitignore reads it: a
 * glob without `/` matches a name at any depth, one with `/` the path from the pack root; a
 * trailing `/` matches dirs only.
 */
export function excludeTest(glob: string): (rel: string, dir: boolean) => boolean {
  const dirOnly = glob.endsWith('/')
  const g = dirOnly ? glob.slice(0, -1) : glob
  const anchored = g.includes('/')
  const whole = new RegExp(`^${globSource(fromRoot(g))}$`)
  return (rel, dir) => {
    if (dirOnly && !dir) return false
    return anchored ? whole.test(rel) : whole.test(rel.slice(rel.lastIndexOf('/') + 1))
  }
}
