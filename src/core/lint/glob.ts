/**
 * A minimal glob matcher for `ignore:` patterns (Node 20 has neither fs.glob nor
 * path.matchesGlob). Paths and patterns use `/`. Supported: `*` (any characters but `/`),
 * `?` (one character but `/`), `**` as a whole segment (any number of segments, none
 * included); everything else is literal. A leading `./` or `/` is dropped: patterns are
 * relative to the config file's dir. A pattern also matches everything under a dir it
 * matches (`vendor` and `vendor/**` both ignore `vendor/x/skill.json`).
 */
export function globToRegExp(pattern: string): RegExp {
  let p = pattern.trim().replace(/^\.\//, '').replace(/^\/+/, '')
  if (p.endsWith('/')) p = p.slice(0, -1)
  const segments = p.split('/')
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
  return new RegExp(`^${re}(?:/.*)?$`)
}

/** Whether `path` (relative, `/`-separated) matches any of the patterns. */
export function matchesAny(path: string, patterns: readonly RegExp[]): boolean {
  return patterns.some((re) => re.test(path))
}
