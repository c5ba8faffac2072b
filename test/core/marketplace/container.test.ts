import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { toText } from '../../../src/core/go/gostring.js'
import {
  bareSkillsPackID,
  detectContainer,
  loadPluginContainer,
} from '../../../src/core/marketplace/container.js'
import {
  checkInstall,
  DEFAULT_TRUST,
  parseDevMode,
  parseRequireSigned,
  stagingBasename,
} from '../../../src/core/marketplace/install.js'
import { makeTree, tempRoot } from '../../helpers/tree.js'

const { root, cleanup } = tempRoot('ongrid-mp-ct-')
after(cleanup)
let n = 0
function pack(nodes: Parameters<typeof makeTree>[1], name = `p${n++}`): string {
  const dir = join(root, name)
  mkdirSync(dir)
  makeTree(dir, nodes)
  return dir
}
const SKILL = (name: string) => `---\nname: ${name}\ndescription: Does it.\n---\nBody\n`

test('layouts: openclaw > claude > bare; one level into skills/; case-sensitive', () => {
  assert.equal(
    detectContainer(pack({ 'openclaw.plugin.json': '{}', '.claude-plugin/plugin.json': '{}' })).kind,
    'openclaw',
  )
  assert.equal(detectContainer(pack({ '.claude-plugin/plugin.json': '{}' })).kind, 'claude')
  assert.equal(detectContainer(pack({ 'SKILL.md': 'x' })).kind, 'bare_skills')
  assert.equal(detectContainer(pack({ 'skills/a/SKILL.md': 'x' })).kind, 'bare_skills')
  assert.equal(detectContainer(pack({ 'skills/a/b/SKILL.md': 'x' })).kind, '')
  assert.equal(detectContainer(pack({ 'skill.md': 'x', 'Skills/a/SKILL.md': 'x' })).kind, '')
  assert.equal(
    detectContainer(pack({ real: { dir: true }, 'real/SKILL.md': 'x', 'skills/l': { link: '../real' } }))
      .kind,
    '',
  )
})

test('bare pack ids (the manager’s tested cases, Go’s ToLower)', () => {
  assert.equal(bareSkillsPackID('vercel-labs__skills'), 'vercel-labs-skills')
  assert.equal(bareSkillsPackID('My Awesome Pack v2'), 'my-awesome-pack-v2')
  assert.equal(bareSkillsPackID('____'), 'untitled-skill-pack')
  assert.equal(bareSkillsPackID('snake_case_repo'), 'snake-case-repo')
  assert.equal(bareSkillsPackID('\xc4\xb0stanbul'), 'istanbul')
  assert.equal(stagingBasename(' /x\\ '), 'x')
  assert.equal(stagingBasename('..'), 'pack')
})

test('manifest errors and warnings with the manager’s texts', async () => {
  const err = async (manifest: string) => {
    const r = await loadPluginContainer(pack({ '.claude-plugin/plugin.json': manifest }))
    return r.ok ? null : toText(r.err.error()).replace(/^chatruntime: parse .*?plugin\.json: /, '')
  }
  assert.equal(await err('{"version":"1"}'), "manifest missing required field 'id'")
  assert.equal(
    await err('{"id":1}'),
    'decode: json: cannot unmarshal number into Go struct field PluginManifest.id of type string',
  )
  assert.equal(
    await err('[]'),
    'decode: json: cannot unmarshal array into Go value of type chatruntime.PluginManifest',
  )
  assert.equal(await err('\ufeff{}'), "decode: invalid character 'ï' looking for beginning of value")
  const r = await loadPluginContainer(
    pack({ 'openclaw.plugin.json': '{"name":"N","ID":"x","skills":["../up"," ","a"],"providers":[]}' }),
  )
  assert.ok(r.ok)
  assert.equal(r.result.pack.id, 'x')
  assert.deepEqual(
    r.result.warnings.map((w) => [w.code, w.reason]),
    [
      [
        'openclaw_legacy_preserved',
        'preserved 3 openclaw-specific manifest fields under ui_metadata.openclaw_legacy',
      ],
      ['skills_path_rejected', `manifest skills[] entry "../up" is absolute or contains '..'; rejected`],
    ],
  )
  const fb = await loadPluginContainer(pack({ '.claude-plugin/plugin.json': '{"name":"from-name"}' }))
  assert.ok(fb.ok)
  assert.equal(fb.result.pack.id, 'from-name')
  assert.equal(fb.result.warnings[0].code, 'id_fallback_from_name')
})

test('the skills walk: escaping links, in-root links skipped, parse failures, agents, commands, hooks, mcp', async () => {
  const outside = pack({ 'target/SKILL.md': SKILL('evil') })
  const dir = pack({
    '.claude-plugin/plugin.json': '{"id":"demo"}',
    'skills/a/SKILL.md': SKILL('Hello World'),
    'skills/b/SKILL.md': '---\nname: b\n---\n',
    'skills/pwned': { link: join(outside, 'target') },
    'skills/inroot': { link: 'a' },
    'agents/ops.md': '---\nname: Ops\ndescription: d\nwhen_to_use: w\n---\n',
    'agents/README.md': 'ignored',
    'agents/bad.md': '---\nname: bad\ndescription: d\n---\n',
    'commands/git/deploy-now.md': 'no frontmatter',
    'hooks/pre.sh': 'x',
    '.mcp.json': '{}',
    'SKILL.md': SKILL('ignored_in_claude'),
  })
  const r = await loadPluginContainer(dir)
  assert.ok(r.ok)
  const res = r.result
  assert.deepEqual(
    res.skills.map((s) => s.name),
    ['hello_world', 'cmd_deploy_now'],
  )
  assert.deepEqual(
    res.agents.map((a) => a.name),
    ['Ops'],
  )
  assert.deepEqual(
    res.warnings.map(
      (w) =>
        `${w.code} ${w.path.slice(dir.length + 1)}: ${w.reason.split(dir).join('D').split(outside).join('O')}`,
    ),
    [
      'name_normalized skills/a/SKILL.md: name "Hello World" is not snake_case; normalized to "hello_world"',
      "parse_failed skills/b/SKILL.md: chatruntime: D/skills/b/SKILL.md: frontmatter missing required field 'description'",
      'escapes_root skills/pwned: path traversal: resolved path O/target escapes pack root D',
      "parse_failed agents/bad.md: chatruntime: D/agents/bad.md: frontmatter missing required field 'when_to_use'",
      'name_non_snake agents/ops.md: agent name "Ops" is not snake_case (recommends underscores)',
      'command_missing_description commands/git/deploy-now.md: command "deploy-now" has no frontmatter description; using a generated default',
      'hooks_unsupported hooks: hooks/ subdir found; ongrid does not run plugin hooks',
      'hooks_dropped hooks/pre.sh: hook file ignored; ongrid never executes plugin hooks',
      'mcp_unsupported .mcp.json: .mcp.json found; ongrid does not run MCP servers yet',
    ],
  )
  const check = await checkInstall(dir)
  assert.equal(
    check.installError,
    `invalid argument: pack contains path-traversal symlinks (${join(dir, 'skills/pwned')})`,
  )
})

test('install texts in order; the trust gate; our findings marked as ours', async () => {
  const none = await checkInstall(pack({ 'x.txt': '' }))
  assert.equal(
    none.installError,
    'invalid argument: not a recognized pack layout (need .claude-plugin/plugin.json, openclaw.plugin.json, or at least one skills/<name>/SKILL.md)',
  )
  const dir = pack({ '.claude-plugin/plugin.json': '{"id":"."}', 'skills/a/SKILL.md': SKILL('a') })
  const dot = await checkInstall(dir)
  assert.equal(dot.installError, null)
  assert.deepEqual(
    dot.findings.map((f) => [f.id, f.manager]),
    [
      ['marketplace-bug/id-dot', false],
      ['marketplace-practice/id-form', false],
    ],
  )
  const sep = await checkInstall(pack({ '.claude-plugin/plugin.json': '{"id":"a/b"}' }))
  assert.equal(sep.installError, `invalid argument: pack id "a/b" contains path separators or '..'`)
  const bad = await checkInstall(pack({ '.claude-plugin/plugin.json': '{}' }))
  assert.match(
    bad.installError ?? '',
    /^invalid argument: plugin container load failed: chatruntime: parse .*: manifest missing required field 'id'$/,
  )
  const ok = pack({ '.claude-plugin/plugin.json': '{"id":"ok"}' })
  const gated = await checkInstall(ok, { ...DEFAULT_TRUST, devMode: false, requireSigned: ['local'] })
  assert.equal(
    gated.installError,
    'forbidden: source "local" requires signed packs (state=unsigned: no signature.json found)',
  )
  const notAllowed = await checkInstall(ok, { ...DEFAULT_TRUST, devMode: false, source: 'git' })
  assert.equal(
    notAllowed.installError,
    'forbidden: source "git" not in allowlist (set ONGRID_MARKETPLACE_DEVMODE=true to override)',
  )
  assert.equal((await checkInstall(ok, { ...DEFAULT_TRUST, devMode: false })).installError, null)
})

test('a dangling link out of the pack installs (the manager only warns): our error', async () => {
  const dir = pack(
    { 'skills/a/SKILL.md': SKILL('a'), 'skills/gone': { link: '../../../nowhere/x' } },
    'bare pack',
  )
  const c = await checkInstall(dir)
  assert.equal(c.installError, null)
  assert.equal(c.load?.pack.id, 'bare-pack')
  assert.deepEqual(
    c.load?.warnings.map((w) => w.code),
    ['symlink_error'],
  )
  assert.ok(c.findings.some((f) => f.id === 'marketplace-bug/dangling-escape' && !f.manager))
})

test('configuration as main.go reads it', () => {
  assert.equal(parseDevMode(undefined), true)
  assert.equal(parseDevMode('TRUE'), true)
  assert.equal(parseDevMode('1'), false)
  assert.equal(parseDevMode(' true'), false)
  assert.deepEqual(parseRequireSigned(''), ['ongrid-official'])
  assert.deepEqual(parseRequireSigned(','), [])
  assert.deepEqual(parseRequireSigned(' a , ,b'), ['a', 'b'])
  // Go's TrimSpace (bytes): NEL (U+0085) is white space, a BOM (U+FEFF) is not; JS's trim thinks the opposite.
  assert.deepEqual(parseRequireSigned('\xc2\x85a\xc2\x85,b'), ['a', 'b'])
  assert.deepEqual(parseRequireSigned('\xef\xbb\xbfa'), ['\xef\xbb\xbfa'])
})
