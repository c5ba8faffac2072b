import type { GoString } from '../../go/gostring.js'
import { pack, packText, SKILL_MD, SKILL_MD_TEXT, skillJson, skillMd } from '../rule-kit/examples.js'
import type { AnyRule } from '../rule-kit/util.js'
import type { TextEdit } from '../types.js'

const BOM = '\xef\xbb\xbf'

/** Pure fixer: the edit that removes a leading UTF-8 byte order mark, or null. */
export function fixBom(raw: GoString): TextEdit | null {
  return raw.startsWith(BOM) ? { range: [0, BOM.length], text: '' } : null
}

const rule: AnyRule = {
  id: 'practice/bom',
  severity: 'error',
  category: 'best-practice',
  kind: 'any',
  docs: 'The file starts with a UTF-8 byte order mark: Go’s JSON decoder rejects skill.json, and a SKILL.md then has no frontmatter.',
  fixSafety: {
    safe: true,
    because:
      'it removes only the three bytes of the mark, which the manager either rejects (skill.json) or reads as text before the frontmatter (SKILL.md).',
  },
  examples: {
    bad: [
      {
        files: packText(
          `\ufeff${skillJson({ name: 'disk_free', description: 'Reports free space.', entry: 'run.sh' })}`,
        ),
      },
      { files: skillMd(`\ufeff${SKILL_MD_TEXT}`) },
    ],
    good: [{ files: pack() }, { files: SKILL_MD }],
  },
  fixable: 'text',
  check(ctx, report) {
    const edit = fixBom(ctx.raw ?? '')
    if (!edit) return
    report({
      at: null,
      message:
        ctx.kind === 'manifest'
          ? 'the file starts with a UTF-8 byte order mark, which Go’s JSON decoder rejects: save it without BOM'
          : 'the file starts with a UTF-8 byte order mark, so the manager finds no `---` line and no frontmatter: save it without BOM',
      fix: { edits: [edit] },
    })
  },
}
export default rule
