import rule from '../../../../src/core/lint/rules/manager-symlink-not-walked.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_NATIVE, CLEAN_PACK, pack } from './fixtures.js'

const HINT = 'list the resolved dir in ONGRID_SKILLS_EXTERNAL_DIRS, or move the packs under this dir'
const MESSAGE =
  "a symlink to a dir that holds packs: the manager's walk does not follow symlinks (filepath.Walk), so it loads none of them"

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    { name: 'a clean SKILL.md', files: CLEAN_NATIVE },
    {
      name: 'a symlink to a dir without packs (a venv’s lib64)',
      files: { ...CLEAN_PACK, 'skills/a/venv/lib/x.py': '', 'skills/a/venv/lib64': { link: 'lib' } },
    },
    {
      name: 'a symlink to a file',
      files: { ...CLEAN_PACK, 'skills/a/run2.sh': { link: 'run.sh' } },
    },
  ],
  invalid: [
    {
      name: 'a symlink to a pack dir',
      files: {
        'skills/a/skill.json': pack(),
        'skills/a/run.sh': ECHO,
        'skills/linked': { link: '../other/b' },
        'other/b/skill.json': pack(),
        'other/b/run.sh': ECHO,
      },
      findings: [{ message: MESSAGE, hint: HINT, line: 1, column: 1, file: 'skills/linked' }],
    },
    {
      name: 'a symlink to a dir of packs (one level down)',
      files: {
        'skills/a/skill.json': pack(),
        'skills/a/run.sh': ECHO,
        'skills/more': { link: '../other' },
        'other/b/skill.json': pack(),
        'other/b/run.sh': ECHO,
      },
      findings: [{ message: MESSAGE, hint: HINT, line: 1, column: 1, file: 'skills/more' }],
    },
  ],
})
