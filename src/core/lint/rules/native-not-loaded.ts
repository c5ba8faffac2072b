import { type GoString, toText } from '../../go/gostring.js'
import type { NotLoaded } from '../../marketplace/load-all.js'
import { SKILL_MD, SKILL_MD_TEXT } from '../rule-kit/examples.js'
import type { NativeRule } from '../rule-kit/util.js'

const KIND: Record<string, string> = {
  bare_skills: 'a bare skills pack (no manifest)',
  claude: 'a Claude plugin (.claude-plugin/plugin.json)',
  openclaw: 'an openclaw pack (openclaw.plugin.json)',
}

const roots = (rs: GoString[]) => (rs.length === 0 ? 'none of its dirs' : rs.map(toText).join(', '))

/** The finding for a SKILL.md the chat runtime's walk never parses. */
function finding(n: NotLoaded): { message: string; hint: string } {
  switch (n.kind) {
    case 'warning':
      return {
        message: toText(n.warning.reason),
        hint: `the chat runtime logs this as a LoadWarning (${n.warning.code}) and registers nothing from this file`,
      }
    case 'symlink':
      return {
        message:
          'a symlinked SKILL.md: the chat runtime’s walk never parses one (filepath.Walk does not follow it), so nothing is registered from it, without a warning',
        hint: 'put the file itself here, not a link to it',
      }
    case 'container':
      return {
        message: `not loaded: the chat runtime cannot load the pack ${toText(n.container)}: ${toText(n.warning.reason)}`,
        hint: 'the chat runtime logs this as a LoadWarning (container_load_failed) and registers nothing from the pack',
      }
    case 'outside':
      return {
        message: `not loaded: the chat runtime loads ${toText(n.container)} as ${KIND[n.containerKind] ?? 'a pack'} and reads SKILL.md files from ${roots(n.skillRoots)} only`,
        hint:
          n.containerKind === 'bare_skills'
            ? 'a skills/ dir takes precedence over the pack’s other SKILL.md files: move this one under skills/<name>/'
            : 'move this SKILL.md under a dir the pack’s skills are read from',
      }
  }
}

const rule: NativeRule = {
  id: 'native/not-loaded',
  severity: 'error',
  category: 'manager',
  kind: 'native',
  docs: 'The chat runtime’s walk (LoadAll) never parses this SKILL.md: a symlink (out of its pack: `escapes_root`; dangling: `symlink_error`; else skipped silently), outside the skill roots of the pack that holds it (a `skills/` dir takes precedence), or in a pack that does not load.',
  examples: {
    bad: [
      { files: { ...SKILL_MD, 'skills/disk_free/skills/df/SKILL.md': SKILL_MD_TEXT } },
      { files: { 'skills/disk_free/SKILL.md': { link: '../../SKILL.md' }, 'SKILL.md': SKILL_MD_TEXT } },
    ],
    good: [{ files: SKILL_MD }, { files: { 'skills/disk_free/skills/df/SKILL.md': SKILL_MD_TEXT } }],
  },
  check(ctx, report) {
    if (ctx.notLoaded === null) return
    report({ at: null, ...finding(ctx.notLoaded) })
  },
}
export default rule
