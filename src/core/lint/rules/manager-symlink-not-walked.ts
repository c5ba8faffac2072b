import { pack, RUN_SH, skillJson } from '../rule-kit/examples.js'
import type { AnyRule } from '../rule-kit/util.js'

/** A symlink to a dir of packs inside a walked dir: the manager's walk does not follow it. */
const rule: AnyRule = {
  id: 'manager/symlink-not-walked',
  severity: 'warn',
  category: 'manager',
  kind: 'any',
  docs: 'A symlink to a dir that holds packs, inside a dir the loader walks: filepath.Walk does not follow symlinks, so the manager loads none of them, without a word.',
  examples: {
    bad: [
      {
        files: {
          ...pack(),
          'skills/linked': { link: '../elsewhere' },
          'elsewhere/other/skill.json': skillJson({
            name: 'other',
            description: 'Another pack.',
            entry: 'run.sh',
          }),
          'elsewhere/other/run.sh': RUN_SH,
        },
      },
    ],
    good: [
      {
        files: pack({}, { 'venv/lib/site.py': '', 'venv/lib64': { link: 'lib' } }),
      },
    ],
  },
  check() {},
  checkWalk(w, report) {
    if (w.err !== null) return
    report({
      at: null,
      message:
        "a symlink to a dir that holds packs: the manager's walk does not follow symlinks (filepath.Walk), so it loads none of them",
      hint: 'list the resolved dir in ONGRID_SKILLS_EXTERNAL_DIRS, or move the packs under this dir',
    })
  },
}
export default rule
