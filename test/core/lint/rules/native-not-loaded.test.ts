import rule from '../../../../src/core/lint/rules/native-not-loaded.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_NATIVE, NATIVE_OK } from './fixtures.js'

const SYMLINK_SILENT =
  'a symlinked SKILL.md: the chat runtime’s walk never parses one (filepath.Walk does not follow it), so nothing is registered from it, without a warning'

ruleTester(rule, {
  valid: [
    { name: 'a clean SKILL.md', files: CLEAN_NATIVE },
    {
      name: 'SKILL.md files anywhere under a bare pack without a skills/ dir',
      files: { 'skills/n/SKILL.md': NATIVE_OK, 'skills/n/deep/er/SKILL.md': NATIVE_OK },
    },
    {
      name: 'skills/<x>/SKILL.md and deeper, in a bare pack',
      files: { 'skills/n/skills/x/SKILL.md': NATIVE_OK, 'skills/n/skills/x/y/SKILL.md': NATIVE_OK },
    },
    {
      name: 'a Claude plugin’s skills/',
      files: {
        'skills/p/.claude-plugin/plugin.json': '{"id": "p"}',
        'skills/p/skills/x/SKILL.md': NATIVE_OK,
      },
    },
    {
      name: 'an openclaw pack’s declared skills[] dir',
      files: {
        'skills/p/openclaw.plugin.json': '{"id": "p", "skills": ["mine"]}',
        'skills/p/mine/x/SKILL.md': NATIVE_OK,
      },
    },
  ],
  invalid: [
    {
      name: 'a symlinked SKILL.md inside its pack: nothing registered, no warning',
      files: { 'skills/n/SKILL.md': NATIVE_OK, 'skills/n/sub/SKILL.md': { link: '../SKILL.md' } },
      findings: [{ message: SYMLINK_SILENT, line: 1, column: 1, file: 'skills/n/sub/SKILL.md' }],
    },
    {
      name: 'a symlinked SKILL.md out of its pack: escapes_root, with the manager’s text',
      files: { 'skills/n/SKILL.md': { link: '../other/real.md' }, 'skills/other/real.md': NATIVE_OK },
      findings: [
        {
          message: 'path traversal: resolved path $R/skills/other/real.md escapes pack root $R/skills/n',
          hint: 'the chat runtime logs this as a LoadWarning (escapes_root) and registers nothing from this file',
          line: 1,
          column: 1,
          file: 'skills/n/SKILL.md',
        },
      ],
    },
    {
      name: 'a dangling SKILL.md symlink: symlink_error, with Go’s lstat text',
      files: { 'skills/n/SKILL.md': { link: 'nowhere' } },
      findings: [
        {
          message: 'lstat $R/skills/n/nowhere: no such file or directory',
          hint: 'the chat runtime logs this as a LoadWarning (symlink_error) and registers nothing from this file',
          line: 1,
          column: 1,
          file: 'skills/n/SKILL.md',
        },
      ],
    },
    {
      // pathSafeUnderRoot's Rel check: a path that starts with `..` counts as outside the pack.
      name: 'a SKILL.md in a dir named ..x of its pack: escapes_root, the manager’s quirk',
      files: { 'skills/n/SKILL.md': NATIVE_OK, 'skills/n/..x/SKILL.md': NATIVE_OK },
      findings: [
        {
          message: 'path traversal: resolved path $R/skills/n/..x/SKILL.md escapes pack root $R/skills/n',
          line: 1,
          column: 1,
          file: 'skills/n/..x/SKILL.md',
        },
      ],
    },
    {
      name: 'a bare pack with a skills/ dir: its own SKILL.md is not loaded',
      files: { 'skills/n/SKILL.md': NATIVE_OK, 'skills/n/skills/x/SKILL.md': NATIVE_OK },
      findings: [
        {
          message:
            'not loaded: the chat runtime loads $R/skills/n as a bare skills pack (no manifest) and reads SKILL.md files from $R/skills/n/skills only',
          hint: 'a skills/ dir takes precedence over the pack’s other SKILL.md files: move this one under skills/<name>/',
          line: 1,
          column: 1,
          file: 'skills/n/SKILL.md',
        },
      ],
    },
    {
      name: 'a root that is a bare pack itself: its siblings of skills/ are never walked',
      path: 'root',
      files: {
        'root/skills/a/SKILL.md': NATIVE_OK,
        'root/b/SKILL.md': NATIVE_OK,
      },
      findings: [
        {
          message:
            'not loaded: the chat runtime loads $R/root as a bare skills pack (no manifest) and reads SKILL.md files from $R/root/skills only',
          line: 1,
          column: 1,
          file: 'root/b/SKILL.md',
        },
      ],
    },
    {
      name: 'a Claude plugin: a SKILL.md at its top is ignored',
      files: {
        'skills/p/.claude-plugin/plugin.json': '{"id": "p"}',
        'skills/p/SKILL.md': NATIVE_OK,
        'skills/p/skills/x/SKILL.md': NATIVE_OK,
      },
      findings: [
        {
          message:
            'not loaded: the chat runtime loads $R/skills/p as a Claude plugin (.claude-plugin/plugin.json) and reads SKILL.md files from $R/skills/p/skills only',
          line: 1,
          column: 1,
          file: 'skills/p/SKILL.md',
        },
      ],
    },
    {
      name: 'a pack whose manifest does not load: container_load_failed',
      files: { 'skills/p/.claude-plugin/plugin.json': '{}', 'skills/p/skills/x/SKILL.md': NATIVE_OK },
      findings: [
        {
          message:
            "not loaded: the chat runtime cannot load the pack $R/skills/p: chatruntime: parse $R/skills/p/.claude-plugin/plugin.json: manifest missing required field 'id'",
          line: 1,
          column: 1,
          file: 'skills/p/skills/x/SKILL.md',
        },
      ],
    },
  ],
})
