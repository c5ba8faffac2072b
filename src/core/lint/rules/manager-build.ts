import { toText } from '../../go/gostring.js'
import { ENOENT } from '../../go/os/errors.js'
import { rel } from '../../go/path/filepath/path.js'
import { jsonString } from '../fix.js'
import { pack } from '../rule-kit/examples.js'
import { normalizeName } from '../rule-kit/names.js'
import type { ManifestRule } from '../rule-kit/util.js'

function fieldOf(msg: string): string | null {
  if (msg === 'name required' || msg.startsWith('name ')) return 'name'
  if (msg === 'description required') return 'description'
  if (msg.startsWith('eval allowlist root')) return null
  if (msg.startsWith('class ')) return 'class'
  if (msg.includes('entry')) return 'entry'
  return null
}

const CLASSES = ['safe', 'mutating', 'dangerous']

const rule: ManifestRule = {
  id: 'manager/build',
  severity: 'error',
  category: 'manager',
  kind: 'manifest',
  docs: 'The loader refuses the manifest: name, description, entry, allow-list escape or class (its own text).',
  examples: { bad: [{ files: pack({ name: 'Disk-Free' }) }], good: [{ files: pack() }] },
  hasSuggestions: true,
  check(ctx, report) {
    const b = ctx.build
    if (!b || b.ok) return
    const msg = b.err.error()
    const field = fieldOf(msg)
    let hint: string | undefined
    if (msg.startsWith('name "')) {
      hint = `names may only use a-z, 0-9 and _: e.g. "${toText(normalizeName(ctx.parsed?.manifest.name ?? ''))}".`
    } else if (msg.startsWith('eval entry symlinks:') && msg.includes(ENOENT.error())) {
      hint = 'a relative entry is resolved against the directory that holds skill.json.'
    } else if (msg.startsWith('eval allowlist root:')) {
      hint = 'the allow-list root does not resolve: pass --root with the dir the manager is configured with.'
    } else {
      const m = /^entry (.*) escapes allowlist root (.*)$/s.exec(msg)
      if (m) {
        const r = rel(m[2], m[1])
        const first = r.ok ? r.value.split('/')[0] : '..'
        hint =
          first !== '..' && r.ok
            ? `the entry is inside the root, at ${toText(r.value)}, but the manager treats any relative path starting with ".." as an escape, so "${toText(first)}" counts as outside: rename that directory.`
            : 'the entry (after resolving symlinks) must be inside the allow-list root; use --root if the manager’s root is another dir.'
      }
    }
    // A class in another case ("Safe"): the manager compares exactly, so the lower case is a
    // suggestion (it changes what the manager does: refused today, loaded after).
    const classKey = field === 'class' ? ctx.lastKey('class') : undefined
    const cls = ctx.parsed?.manifest.class
    const lower = cls === undefined ? '' : toText(cls).toLowerCase()
    if (classKey && CLASSES.includes(lower) && lower !== toText(cls ?? '')) {
      hint = `the manager's classes are lower case: "${lower}".`
      const fix = {
        edits: [
          { range: [classKey.valueOffset, classKey.valueEnd] as [number, number], text: jsonString(lower) },
        ],
      }
      report({
        at: classKey.offset,
        message: toText(msg),
        hint,
        suggestions: [
          {
            message: `set "class" to "${lower}" (not applied by --fix: the manager loads the pack then)`,
            fix,
          },
        ],
      })
      return
    }
    report({ at: field ? ctx.keyAt(field) : null, message: toText(msg), hint })
  },
}
export default rule
