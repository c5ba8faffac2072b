import assert from 'node:assert/strict'
import { chmodSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { check } from '../../../src/core/lint/engine.js'
import { entryProblem } from '../../../src/core/lint/entry.js'
import { RULES } from '../../../src/core/lint/registry.js'
import { MANAGER_RULES } from '../../../src/core/lint/registry-manager.js'
import type { Finding } from '../../../src/core/lint/types.js'
import { ECHO, makeTree, manifest, type Node, tempRoot } from '../../helpers/tree.js'
import { mkfifoSync } from './fifo.js'

/** A clean pack: lint finds nothing in it. */
const CLEAN = {
  name: 'clean',
  description: 'Reports the free space of a filesystem, in bytes.',
  entry: 'run.sh',
  class: 'safe',
  timeout_seconds: 10,
  env_allow: ['PATH'],
  schema: {
    type: 'object',
    properties: { path: { type: 'string', description: 'A path.', default: '/' } },
    additionalProperties: false,
  },
}

function pack(fields: Record<string, unknown> = {}): string {
  return manifest({ ...CLEAN, ...fields })
}

interface Case {
  /** The rule that must fire. */
  rule: string
  /** Files under the temp root; the checked PATH is `skills` unless `path` says otherwise. */
  tree: Record<string, Node>
  path?: string
  /** Expected line:column and message (a regexp or the exact text, with $R for the root). */
  at?: [number, number]
  message?: RegExp | string
  setup?: (R: string) => void
}

const NATIVE_OK = '---\nname: disk_report\ndescription: Reports disks.\n---\n# Disk\n'

const CASES: Case[] = [
  {
    rule: 'manager/parse',
    tree: { 'skills/a/skill.json': '{\n  "name": "a",\n}' },
    at: [3, 1],
    message: "decode: invalid character '}' looking for beginning of object key string",
  },
  {
    rule: 'manager/parse',
    tree: { 'skills/a/skill.json': '{"name": "a", "timeout_seconds": "30"}' },
    at: [1, 15],
    message:
      'decode: json: cannot unmarshal string into Go struct field SkillManifest.timeout_seconds of type int',
  },
  {
    rule: 'manager/parse',
    tree: { 'skills/a/skill.json': '\ufeff{}' },
    at: [1, 1],
    message: "decode: invalid character 'ï' looking for beginning of value",
  },
  {
    rule: 'manager/parse',
    tree: { 'skills/a/skill.json': '{"a":1' },
    at: [1, 7],
    message: 'decode: unexpected end of JSON input',
  },
  {
    rule: 'manager/parse',
    tree: { 'skills/a/skill.json': { link: 'nowhere' } },
    message: 'read: open $R/skills/a/skill.json: no such file or directory',
    at: [1, 1],
  },
  {
    rule: 'manager/build',
    tree: { 'skills/a/skill.json': pack({ name: 'Bad-Name' }), 'skills/a/run.sh': ECHO },
    at: [1, 2],
    message: 'name "Bad-Name" must be lower_snake [a-z0-9_]',
  },
  {
    rule: 'manager/build',
    tree: { 'skills/a/skill.json': pack({ entry: 'missing.sh' }) },
    message: 'eval entry symlinks: lstat $R/skills/a/missing.sh: no such file or directory',
  },
  {
    rule: 'manager/build',
    tree: { 'skills/a/skill.json': pack({ entry: '../../outside.sh' }), 'outside.sh': ECHO },
    message: 'entry $R/outside.sh escapes allowlist root $R/skills',
  },
  {
    rule: 'manager/build',
    tree: { 'skills/a/skill.json': pack({ entry: '../..x/run.sh' }), 'skills/..x/run.sh': ECHO },
    message: 'entry $R/skills/..x/run.sh escapes allowlist root $R/skills',
  },
  {
    rule: 'manager/build',
    tree: { 'skills/a/skill.json': pack({ class: 'Safe' }), 'skills/a/run.sh': ECHO },
    message: 'class "Safe" invalid',
  },
  {
    rule: 'manager/builtin-name',
    tree: { 'skills/a/skill.json': pack({ name: 'web_search' }), 'skills/a/run.sh': ECHO },
    at: [1, 2],
    message: 'skill "web_search" already registered, skipping $R/skills/a/skill.json',
  },
  {
    rule: 'manager/duplicate-name',
    tree: {
      'skills/a/skill.json': pack(),
      'skills/a/run.sh': ECHO,
      'skills/b/skill.json': pack(),
      'skills/b/run.sh': ECHO,
    },
    message: 'skill "clean" already registered, skipping $R/skills/b/skill.json',
  },
  {
    rule: 'manager/walk',
    tree: { 'skills/a/skill.json': pack(), 'skills/a/run.sh': ECHO, 'skills/locked/x': 'x' },
    setup: (R) => chmodSync(`${R}/skills/locked`, 0o000),
    message: 'walk $R/skills/locked: open $R/skills/locked: permission denied',
  },
  {
    rule: 'manager/file-name',
    tree: { 'skills/a/manifest.json': pack(), 'skills/a/run.sh': ECHO },
    path: 'skills/a/manifest.json',
    message: /only reads files named skill.json/,
  },
  {
    // 17 MiB of NULs: judged as the manager judges it, whatever the size.
    rule: 'manager/parse',
    tree: { 'skills/a/skill.json': '' },
    setup: (R) => truncateSync(`${R}/skills/a/skill.json`, 17 * 1024 * 1024),
    message: /invalid character '\\x00' looking for beginning of value$/,
  },
  {
    rule: 'input/skipped',
    tree: { 'skills/a/run.sh': ECHO },
    setup: (R) => mkfifoSync(`${R}/skills/a/skill.json`),
    message:
      /^not checked: a FIFO: the manager's boot blocks reading it until a writer opens it and closes it; not read$/,
  },
  {
    rule: 'input/skipped',
    tree: { 'skills/a/run.sh': ECHO },
    setup: (R) => symlinkSync('/dev/zero', `${R}/skills/a/skill.json`),
    message:
      /^not checked: a device that does not end within 67108864 bytes: the manager would read it forever/,
  },
  {
    // /dev/null ends at once: the manager's own parse error.
    rule: 'manager/parse',
    tree: { 'skills/a/run.sh': ECHO },
    setup: (R) => symlinkSync('/dev/null', `${R}/skills/a/skill.json`),
    message: /unexpected end of JSON input$/,
  },
  {
    rule: 'run/entry-directory',
    tree: { 'skills/a/skill.json': pack({ entry: 'bin' }), 'skills/a/bin': { dir: true } },
    message: 'subprocess skill: entry $R/skills/a/bin is a directory',
  },
  {
    rule: 'run/not-executable',
    tree: { 'skills/a/skill.json': pack(), 'skills/a/run.sh': { file: '#!/bin/sh\n', mode: 0o644 } },
    message: 'subprocess skill: entry $R/skills/a/run.sh not executable',
  },
  {
    rule: 'run/exec-format',
    tree: { 'skills/a/skill.json': pack(), 'skills/a/run.sh': { exec: 'echo no shebang\n' } },
    message: 'subprocess skill clean: start: fork/exec $R/skills/a/run.sh: exec format error (stderr: )',
  },
  {
    rule: 'run/exec-format',
    tree: { 'skills/a/skill.json': pack() },
    setup: (R) => {
      mkfifoSync(`${R}/skills/a/run.sh`)
      chmodSync(`${R}/skills/a/run.sh`, 0o755)
    },
    message: 'subprocess skill clean: start: fork/exec $R/skills/a/run.sh: permission denied (stderr: )',
  },
  {
    rule: 'run/interpreter-missing',
    tree: { 'skills/a/skill.json': pack(), 'skills/a/run.sh': { exec: '#!/no/such/interp\n' } },
    message:
      'subprocess skill clean: start: fork/exec $R/skills/a/run.sh: no such file or directory (stderr: )',
  },
  {
    rule: 'run/env-lookup',
    tree: {
      'skills/a/skill.json': pack({ env_allow: [] }),
      'skills/a/run.sh': { exec: '#!/usr/bin/env no-such-program-xyz\n' },
    },
    message: /PATH is not in env_allow/,
  },
  {
    rule: 'run/env-lookup',
    tree: { 'skills/a/skill.json': pack(), 'skills/a/run.sh': { exec: '#!/usr/bin/env sh -e\n' } },
    message: /passes "sh -e" to env as ONE argument/,
  },
  {
    rule: 'schema/not-object',
    tree: {
      'skills/a/skill.json': '{"name":"clean","description":"d","entry":"run.sh","schema":"x"}',
      'skills/a/run.sh': ECHO,
    },
    at: [1, 61],
    message:
      'subprocess skill "clean": invalid manifest schema: json: cannot unmarshal string into Go value of type map[string]interface {}',
  },
  {
    rule: 'schema/number-range',
    tree: {
      'skills/a/skill.json': pack({ schema: { type: 'object', maximum: '@' } }).replace('"@"', '1e400'),
      'skills/a/run.sh': ECHO,
    },
    message:
      'subprocess skill "clean": invalid manifest schema: json: cannot unmarshal number 1e400 into Go value of type float64',
  },
  {
    rule: 'schema/invalid',
    tree: {
      'skills/a/skill.json': pack({ schema: { type: 'object', properties: { a: { type: 'strin' } } } }),
      'skills/a/run.sh': ECHO,
    },
    message: /^schema\/properties\/a\/type: must be equal to one of the allowed values/,
  },
  {
    rule: 'schema/invalid',
    tree: {
      'skills/a/skill.json': pack({
        schema: { type: 'object', properties: {}, additionalProperties: false, bogus: 1 },
      }),
      'skills/a/run.sh': ECHO,
    },
    message: 'schema: strict mode: unknown keyword: "bogus"',
  },
  {
    rule: 'schema/default-invalid',
    tree: {
      'skills/a/skill.json': pack({
        schema: {
          type: 'object',
          properties: { n: { type: 'integer', description: 'n', default: 'x' } },
          additionalProperties: false,
        },
      }),
      'skills/a/run.sh': ECHO,
    },
    message: 'schema/properties/n/default: the default does not match its schema: must be integer',
  },
  {
    rule: 'schema/unknown-draft',
    tree: {
      'skills/a/skill.json': pack({
        schema: {
          $schema: 'http://json-schema.org/draft-04/schema#',
          type: 'object',
          properties: {},
          additionalProperties: false,
        },
      }),
      'skills/a/run.sh': ECHO,
    },
    message: /draft-04/,
  },
  {
    rule: 'schema/redos-pattern',
    tree: {
      'skills/a/skill.json': pack({
        schema: {
          ...CLEAN.schema,
          properties: {
            path: { type: 'string', description: 'A path.', pattern: '^(/[a-z]+)*$' },
            host: { type: 'string', description: 'A host.', pattern: '^(a+)+$' },
          },
        },
      }),
      'skills/a/run.sh': ECHO,
    },
    message:
      /^schema\/properties\/host\/pattern: the pattern "\^\(a\+\)\+\$" backtracks catastrophically \(exponential time\), e\.g\. on /,
  },
  {
    rule: 'schema/redos-pattern',
    tree: {
      'skills/a/skill.json': pack({
        schema: { ...CLEAN.schema, patternProperties: { '^(\\w+\\s?)*$': { type: 'string' } } },
      }),
      'skills/a/run.sh': ECHO,
    },
    message: /^schema\/patternProperties: the pattern .* backtracks catastrophically/,
  },
  {
    rule: 'schema/too-deep',
    tree: {
      'skills/a/skill.json': pack({ schema: { type: 'object' } }).replace(
        '"type":"object"',
        `"x":${'['.repeat(1100)}${']'.repeat(1100)}`,
      ),
      'skills/a/run.sh': ECHO,
    },
    message: /deeper than 1000 levels/,
  },
  {
    rule: 'env/invalid-name',
    tree: { 'skills/a/skill.json': pack({ env_allow: ['PATH', 'MY-VAR'] }), 'skills/a/run.sh': ECHO },
    message: /^"MY-VAR" is not a valid environment variable name/,
  },
  {
    rule: 'native/read',
    tree: { 'skills/n/SKILL.md': { link: 'nowhere' } },
    message: 'chatruntime: read $R/skills/n/SKILL.md: open $R/skills/n/SKILL.md: no such file or directory',
  },
  {
    rule: 'native/frontmatter',
    tree: { 'skills/n/SKILL.md': '---\nname: a\n' },
    at: [1, 1],
    message: /frontmatter started with --- but never closed$/,
  },
  {
    rule: 'native/yaml',
    tree: { 'skills/n/SKILL.md': '---\nname: [a\n---\n' },
    message: /frontmatter: yaml: line 1: did not find expected ',' or '\]'$/,
  },
  {
    rule: 'native/yaml-type',
    tree: { 'skills/n/SKILL.md': '---\nname: [a]\n---\n' },
    at: [2, 1],
    message: /line 1: cannot unmarshal !!seq into string$/,
  },
  {
    rule: 'native/missing-name',
    tree: { 'skills/n/SKILL.md': '# no frontmatter\n' },
    message: "chatruntime: $R/skills/n/SKILL.md: frontmatter missing required field 'name'",
  },
  {
    rule: 'native/missing-description',
    tree: { 'skills/n/SKILL.md': '---\nname: a\n---\n' },
    message: /missing required field 'description'$/,
  },
  {
    rule: 'native/name-normalized',
    tree: { 'skills/n/SKILL.md': '---\nname: Disk-Report\ndescription: d\n---\n' },
    at: [2, 7],
    message: 'name "Disk-Report" is not snake_case; normalized to "disk_report"',
  },
  {
    rule: 'native/activation-conflict',
    tree: {
      'skills/n/SKILL.md':
        '---\nname: a\ndescription: d\nactivation: {mode: keyword, keywords: [x]}\nmetadata: {ongrid: {activation: {mode: always}}}\n---\n',
    },
    message:
      'both top-level activation and metadata.ongrid.activation are set; using metadata.ongrid.activation',
  },
  {
    rule: 'practice/bom',
    tree: { 'skills/a/skill.json': `\ufeff${pack()}`, 'skills/a/run.sh': ECHO },
    at: [1, 1],
    message: /byte order mark/,
  },
  { rule: 'practice/bom', tree: { 'skills/n/SKILL.md': `\ufeff${NATIVE_OK}` }, message: /no frontmatter/ },
  {
    rule: 'practice/class-unset',
    tree: { 'skills/a/skill.json': pack({ class: undefined }), 'skills/a/run.sh': ECHO },
    at: [1, 1],
    message: /defaults it to "safe"/,
  },
  {
    rule: 'practice/not-offered-to-llm',
    tree: { 'skills/a/skill.json': pack({ class: 'mutating' }), 'skills/a/run.sh': ECHO },
    message: /^mutating skills are never offered to the LLM/,
  },
  {
    rule: 'practice/dangerous-class',
    tree: { 'skills/a/skill.json': pack({ class: 'dangerous' }), 'skills/a/run.sh': ECHO },
    message: /require SOP signature/,
  },
  {
    rule: 'practice/description-length',
    tree: { 'skills/a/skill.json': pack({ description: 'Too short' }), 'skills/a/run.sh': ECHO },
    message: /has 9 characters/,
  },
  {
    rule: 'practice/description-length',
    tree: { 'skills/a/skill.json': pack({ description: 'é'.repeat(1025) }), 'skills/a/run.sh': ECHO },
    message: /has 1025 characters/,
  },
  {
    rule: 'practice/timeout-unset',
    tree: { 'skills/a/skill.json': pack({ timeout_seconds: undefined }), 'skills/a/run.sh': ECHO },
    message: /not set: the manager kills the skill after 30s/,
  },
  {
    rule: 'practice/timeout-ignored',
    tree: { 'skills/a/skill.json': pack({ timeout_seconds: -5 }), 'skills/a/run.sh': ECHO },
    message: 'timeout_seconds -5 is negative: the manager silently uses 30s',
  },
  {
    rule: 'practice/timeout-ignored',
    tree: {
      'skills/a/skill.json': pack({ timeout_seconds: 1 }).replace(
        '"timeout_seconds":1',
        '"timeout_seconds":9223372037',
      ),
      'skills/a/run.sh': ECHO,
    },
    message: 'timeout_seconds 9223372037 overflows int64 nanoseconds: the manager silently uses 30s',
  },
  {
    rule: 'practice/timeout-too-long',
    tree: { 'skills/a/skill.json': pack({ timeout_seconds: 301 }), 'skills/a/run.sh': ECHO },
    message: /gives 5m1s, above 5m0s/,
  },
  {
    rule: 'practice/timeout-llm-deadline',
    tree: { 'skills/a/skill.json': pack({ timeout_seconds: 16 }), 'skills/a/run.sh': ECHO },
    message: /timed out after 16s/,
  },
  {
    rule: 'practice/near-miss-key',
    tree: { 'skills/a/skill.json': pack({ args_schema: {} }), 'skills/a/run.sh': ECHO },
    message: 'unknown key "args_schema" is ignored by the manager: did you mean "schema"?',
  },
  {
    rule: 'practice/near-miss-key',
    tree: { 'skills/a/skill.json': pack({ env: ['PATH'] }), 'skills/a/run.sh': ECHO },
    message: /did you mean "env_allow"/,
  },
  {
    rule: 'practice/near-miss-key',
    tree: { 'skills/a/skill.json': pack({ timeoutSeconds: 3 }), 'skills/a/run.sh': ECHO },
    message: /did you mean "timeout_seconds"/,
  },
  {
    rule: 'practice/case-insensitive-key',
    tree: { 'skills/a/skill.json': pack({ entry: undefined, Entry: 'run.sh' }), 'skills/a/run.sh': ECHO },
    message:
      'key "Entry" was read as "entry": Go matches keys to fields case-insensitively; spell it "entry"',
  },
  {
    rule: 'practice/unknown-key',
    tree: { 'skills/a/skill.json': pack({ author: 'me' }), 'skills/a/run.sh': ECHO },
    message: 'unknown key "author" is ignored by the manager',
  },
  {
    rule: 'practice/duplicate-key',
    tree: {
      'skills/a/skill.json': pack().replace('"class":"safe"', '"class":"mutating","CLASS":"safe"'),
      'skills/a/run.sh': ECHO,
    },
    message: '"class" is set again (first as "class"): Go keeps the last value',
  },
  {
    rule: 'practice/agent-tool-name',
    tree: { 'skills/a/skill.json': pack({ name: 'query_promql' }), 'skills/a/run.sh': ECHO },
    message: /silently replaces it/,
  },
  {
    rule: 'practice/agent-tool-name',
    tree: { 'skills/a/skill.json': pack({ name: 'host_bash' }), 'skills/a/run.sh': ECHO },
    message: /graph agent/,
  },
  {
    rule: 'practice/absolute-entry',
    tree: { 'skills/a/skill.json': pack(), 'skills/a/run.sh': ECHO },
    setup: (R) => writeFileSync(`${R}/skills/a/skill.json`, pack({ entry: `${R}/skills/a/run.sh` })),
    message: /absolute path/,
  },
  {
    rule: 'tests/shape',
    tree: {
      'skills/a/skill.json': pack(),
      'skills/a/run.sh': ECHO,
      'skills/a/tests/a.json': '{\n  "name": "a"\n}',
    },
    at: [1, 1],
    message: '(file): a case needs `expect` (or `"snapshot": true`)',
  },
  {
    rule: 'tests/unknown-key',
    tree: {
      'skills/a/skill.json': pack(),
      'skills/a/run.sh': ECHO,
      'skills/a/tests/a.json': '{\n  "name": "a",\n  "expect": {"ok": true, "stdout": "x"}\n}',
    },
    at: [3, 26],
    message: /^\/expect\/stdout: unknown key "stdout" in expect/,
  },
  {
    rule: 'tests/args-schema',
    tree: {
      'skills/a/skill.json': pack({ schema: { type: 'object', required: ['path'] } }),
      'skills/a/run.sh': ECHO,
      'skills/a/tests/a.json': '{"name": "a", "args": {}, "expect": {"ok": true}}',
    },
    at: [1, 15],
    message: 'case "a": args/path: must have required property \'path\'',
  },
  {
    rule: 'schema/missing',
    tree: { 'skills/a/skill.json': pack({ schema: undefined }), 'skills/a/run.sh': ECHO },
    message: /^no schema/,
  },
  {
    rule: 'schema/top-type',
    tree: { 'skills/a/skill.json': pack({ schema: { type: 'string' } }), 'skills/a/run.sh': ECHO },
    message: /top-level type is not "object"/,
  },
  {
    rule: 'schema/property-description',
    tree: {
      'skills/a/skill.json': pack({
        schema: {
          type: 'object',
          properties: {
            a: {
              type: 'object',
              description: 'a',
              properties: { b: { type: 'string' } },
              additionalProperties: false,
            },
          },
          additionalProperties: false,
        },
      }),
      'skills/a/run.sh': ECHO,
    },
    message: 'property "b" (at /properties/a) has no description: tell the LLM what to pass',
  },
  {
    rule: 'schema/required-unknown',
    tree: {
      'skills/a/skill.json': pack({ schema: { ...CLEAN.schema, required: ['path', 'nope'] } }),
      'skills/a/run.sh': ECHO,
    },
    message: 'required property "nope" is not declared in properties',
  },
  {
    rule: 'schema/additional-properties',
    tree: {
      'skills/a/skill.json': pack({ schema: { type: 'object', properties: {} } }),
      'skills/a/run.sh': ECHO,
    },
    message: /^no additionalProperties decision/,
  },
  {
    rule: 'schema/duplicate-key',
    tree: {
      'skills/a/skill.json': pack().replace(
        '"additionalProperties":false',
        '"additionalProperties":true,"additionalProperties":false',
      ),
      'skills/a/run.sh': ECHO,
    },
    message: '"additionalProperties" appears again in this object: the last one wins',
  },
  {
    rule: 'env/whitespace',
    tree: { 'skills/a/skill.json': pack({ env_allow: [' PATH'] }), 'skills/a/run.sh': ECHO },
    message: '" PATH" has surrounding white space: write "PATH"',
  },
  {
    rule: 'env/empty',
    tree: { 'skills/a/skill.json': pack({ env_allow: ['PATH', null] }), 'skills/a/run.sh': ECHO },
    message: 'empty env_allow entry: the manager skips it',
  },
  {
    rule: 'env/duplicate',
    tree: { 'skills/a/skill.json': pack({ env_allow: ['PATH', 'PATH '] }), 'skills/a/run.sh': ECHO },
    message: '"PATH" is already listed',
  },
  {
    rule: 'native/no-frontmatter',
    tree: { 'skills/n/SKILL.md': ' ---\nname: a\n---\n' },
    at: [1, 1],
    message: /is not a frontmatter fence/,
  },
  {
    rule: 'native/tool-class',
    tree: {
      'skills/n/SKILL.md': '---\nname: a\ndescription: d\ntools:\n  - name: t\n    class: readonly\n---\n',
    },
    at: [6, 12],
    message:
      'tool "t": class "readonly" is not read, write or destructive (the manager accepts any value without a word)',
  },
  {
    rule: 'native/activation-mode',
    tree: { 'skills/n/SKILL.md': '---\nname: a\ndescription: d\nactivation: {mode: sometimes}\n---\n' },
    message: /treats it as always, silently/,
  },
  {
    rule: 'native/keywords-missing',
    tree: {
      'skills/n/SKILL.md':
        '---\nname: a\ndescription: d\nactivation: {mode: Keyword, keywords: [" "]}\n---\n',
    },
    message: /no keywords/,
  },
]

let R = ''
let cleanup = () => {}
let n = 0

async function run(c: Case): Promise<{ findings: Finding[]; root: string }> {
  const root = `${R}/case${n++}`
  makeTree(root, c.tree)
  c.setup?.(root)
  const result = await check({ paths: [`${root}/${c.path ?? 'skills'}`], rules: RULES, set: 'all' })
  return { findings: result.files.flatMap((f) => f.findings), root }
}

describe('every rule, on a pack that triggers it', () => {
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
  })
  after(() => {
    try {
      chmodSync(R, 0o755)
    } catch {}
    cleanup()
  })

  test('the clean pack and a clean SKILL.md have no findings at all', async () => {
    const { findings } = await run({
      rule: '',
      tree: { 'skills/a/skill.json': pack(), 'skills/a/run.sh': ECHO, 'skills/n/SKILL.md': NATIVE_OK },
    })
    assert.deepEqual(findings, [])
  })

  test('run/entry-stat: the executor’s stat of an entry that vanished after loading', () => {
    // Not reachable through the loader short of a race (EvalSymlinks just lstat'ed the same path).
    assert.deepEqual(entryProblem('k', '/no/such/run.sh'), {
      kind: 'stat',
      message: 'subprocess skill: stat /no/such/run.sh: stat /no/such/run.sh: no such file or directory',
    })
  })

  test('every rule in the registry has a case here', () => {
    const covered = new Set([...CASES.map((c) => c.rule), 'run/entry-stat'])
    assert.deepEqual(
      RULES.map((r) => r.id).filter((id) => !covered.has(id)),
      [],
    )
  })

  for (const c of CASES) {
    test(`${c.rule}${typeof c.message === 'string' ? `: ${c.message.slice(0, 60)}` : ''}`, async (t) => {
      if (c.rule === 'manager/walk' && process.getuid?.() === 0) return t.skip('root reads any dir')
      const { findings, root } = await run(c)
      const hits = findings.filter((f) => f.ruleId === c.rule)
      assert.ok(
        hits.length > 0,
        `${c.rule} did not fire; got ${JSON.stringify(findings.map((f) => [f.ruleId, f.message]))}`,
      )
      const f = hits[0]
      if (typeof c.message === 'string') assert.equal(f.message, c.message.replaceAll('$R', root))
      else if (c.message) assert.match(f.message, c.message)
      if (c.at) assert.deepEqual([f.line, f.column], c.at)
      const rule = RULES.find((r) => r.id === c.rule)
      assert.equal(f.severity, rule?.severity)
      if (c.rule === 'manager/walk') chmodSync(`${root}/skills/locked`, 0o755)
    })
  }

  test('schema/invalid points at the keyword, not at a property of the same name; formats at their subschema', async () => {
    const text = pack({
      schema: {
        type: 'object',
        properties: {
          bogus: { type: 'string', description: 'd' },
          u: { type: 'string', description: 'u', format: 'nope' },
        },
        additionalProperties: false,
        bogus: 1,
      },
    })
    const { findings } = await run({
      rule: '',
      tree: { 'skills/a/skill.json': text, 'skills/a/run.sh': ECHO },
    })
    const hit = findings.find((f) => f.ruleId === 'schema/invalid')
    assert.equal(hit?.column, text.indexOf('"bogus":1') + 1)
    const text2 = text.replace(',"bogus":1', '')
    const f2 = (
      await run({ rule: '', tree: { 'skills/a/skill.json': text2, 'skills/a/run.sh': ECHO } })
    ).findings.find((f) => f.ruleId === 'schema/invalid')
    assert.match(f2?.message ?? '', /unknown format "nope"/)
    assert.equal(f2?.column, text2.indexOf('"format"') + 1)
  })

  test('validate’s set is the manager rules only', async () => {
    const root = `${R}/validate`
    makeTree(root, {
      'skills/a/skill.json': pack({ class: undefined, name: 'Bad' }),
      'skills/a/run.sh': ECHO,
    })
    const r = await check({ paths: [`${root}/skills`], rules: MANAGER_RULES, set: 'manager' })
    assert.deepEqual(
      r.files.flatMap((f) => f.findings.map((x) => x.ruleId)),
      ['manager/build'],
    )
    assert.ok(MANAGER_RULES.every((x) => x.category === 'manager' || x.category === 'tests'))
    assert.ok(RULES.filter((x) => x.category === 'manager').every((x) => MANAGER_RULES.includes(x)))
  })
})
