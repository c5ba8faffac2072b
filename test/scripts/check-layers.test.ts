import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, test } from 'node:test'
import { fileURLToPath, pathToFileURL } from 'node:url'

const REPO = fileURLToPath(new URL('../../../', import.meta.url))

type Crossings = (files?: string[], read?: (file: string) => string) => string[]

async function load(): Promise<Crossings> {
  const mod = await import(pathToFileURL(join(REPO, 'scripts/check-layers.mjs')).href)
  return (mod as { crossings: Crossings }).crossings
}

/** The crossings found in a tree given as file → text. */
async function check(tree: Record<string, string>): Promise<string[]> {
  const crossings = await load()
  return crossings(Object.keys(tree), (f) => tree[f]!)
}

describe('the layer check (scripts/check-layers.mjs)', () => {
  test('the source tree crosses no layer', async () => {
    assert.deepEqual((await load())(), [])
  })

  test('imports that follow the table pass', async () => {
    assert.deepEqual(
      await check({
        'src/commands/x.ts': "import { Flags } from '@oclif/core'\nimport { a } from '../cli/actions/x.js'\n",
        'src/cli/actions/x.ts':
          "import { b } from '../../core/y.js'\nimport { c } from '../../ui/z.js'\nimport type { xSpec } from '../specs/x.js'\n",
        'src/cli/specs/x.ts':
          "import { EXIT } from '../../core/errors.js'\nimport { flag } from '../spec.js'\n",
        'src/ui/z.ts': "import chalk from 'chalk'\nimport type { T } from '../core/go/gostring.js'\n",
        'src/core/y.ts': "import { d } from './go/errors.js'\nimport { e } from './lint/types.js'\n",
        'src/core/go/errors.ts':
          "import { readFileSync } from 'node:fs'\nimport { f } from './gostring.js'\n",
      }),
      [],
    )
  })

  test('each crossing is named with its file and line', async () => {
    assert.deepEqual(
      await check({
        'src/commands/x.ts':
          "import { Flags } from '@oclif/core'\nimport { a } from '../core/loader/dirs.js'\n",
        'src/ui/z.ts': "const m = await import('../cli/fast.js')\n",
        'src/core/y.ts': "import {\n  a,\n} from 'chalk'\nexport { b } from '../ui/z.js'\n",
        'src/core/schema/s.ts': "import type { J } from '../lint/json-tree.js'\n",
        'src/core/go/g.ts': "import { h } from '../json-text.js'\nimport yaml from 'yaml'\n",
        // An action is typed by its command's spec, never by its oclif class; a spec is oclif-free.
        'src/cli/actions/a.ts': "import type X from '../../commands/x.js'\n",
        'src/cli/b.ts': "import type X from '../commands/x.js'\n",
        'src/cli/specs/s.ts': "import { Flags } from '@oclif/core'\n",
      }),
      [
        'src/commands/x.ts:2: commands imports src/core/loader/dirs.ts (core)',
        'src/ui/z.ts:1: ui imports src/cli/fast.ts (cli)',
        'src/core/y.ts:1: core imports the package chalk',
        'src/core/y.ts:4: core imports src/ui/z.ts (ui)',
        'src/core/schema/s.ts:1: src/core/schema/ imports src/core/lint/json-tree.ts',
        'src/core/go/g.ts:1: core/go imports src/core/json-text.ts (core)',
        'src/core/go/g.ts:2: core/go imports the package yaml',
        'src/cli/actions/a.ts:1: cli imports src/commands/x.ts (commands)',
        'src/cli/b.ts:1: cli imports src/commands/x.ts (commands)',
        'src/cli/specs/s.ts:1: cli/specs imports the package @oclif/core',
      ],
    )
  })

  test('the marketplace takes nothing of lint but its finding types', async () => {
    assert.deepEqual(
      await check({
        'src/core/marketplace/rules.ts': "import type { RuleMeta } from '../lint/types.js'\n",
        'src/core/marketplace/check.ts':
          "import { check } from '../lint/engine.js'\nimport { a } from '../../ui/marketplace/report.js'\n",
        'src/core/marketplace/pack.ts': "import { x } from '../../cli/errors.js'\n",
        'src/core/glob.ts': "import { y } from './lint/config.js'\n",
      }),
      [
        'src/core/marketplace/check.ts:1: src/core/marketplace/ imports src/core/lint/engine.ts',
        'src/core/marketplace/check.ts:2: core imports src/ui/marketplace/report.ts (ui)',
        'src/core/marketplace/pack.ts:1: core imports src/cli/errors.ts (cli)',
        'src/core/glob.ts:1: src/core/glob.ts imports src/core/lint/config.ts',
      ],
    )
  })

  test('MCP is a layer below cli: it imports no cli, nothing but it imports the SDK or it', async () => {
    assert.deepEqual(
      await check({
        'src/cli/actions/mcp.ts': "import { McpHost } from '../../mcp/host.js'\n",
        'src/mcp/host.ts':
          "import { execute } from '../core/executor/executor.js'\nimport { terminalLine } from '../ui/terminal.js'\n",
        'src/mcp/sdk.ts': "export { Server } from '@modelcontextprotocol/sdk/server/index.js'\n",
        'src/lsp/framing.ts': "import { MAX_MESSAGE_BYTES } from '../mcp/frames.js'\n",
      }),
      [],
    )
    assert.deepEqual(
      await check({
        'src/mcp/host.ts': "import { onStopSignals } from '../cli/signals.js'\nimport chalk from 'chalk'\n",
        'src/core/mcp/tools.ts': "import { Slots } from '../../mcp/slots.js'\n",
        'src/lsp/server.ts': "import { McpHost } from '../mcp/host.js'\n",
        'src/ui/x.ts': "import type { McpTool } from '../mcp/host.js'\n",
        'src/cli/actions/mcp.ts': "import { Server } from '@modelcontextprotocol/sdk/server/index.js'\n",
        'src/commands/mcp.ts': "import { McpHost } from '../mcp/host.js'\n",
      }),
      [
        'src/mcp/host.ts:1: mcp imports src/cli/signals.ts (cli)',
        'src/mcp/host.ts:2: mcp imports the package chalk',
        'src/core/mcp/tools.ts:1: core imports src/mcp/slots.ts (mcp)',
        'src/lsp/server.ts:1: lsp imports src/mcp/host.ts (mcp)',
        'src/ui/x.ts:1: ui imports src/mcp/host.ts (mcp)',
        'src/cli/actions/mcp.ts:1: cli imports the package @modelcontextprotocol/sdk/server/index.js',
        'src/commands/mcp.ts:1: commands imports src/mcp/host.ts (mcp)',
      ],
    )
  })

  test('the loader takes nothing of the executor or of lint', async () => {
    assert.deepEqual(
      await check({
        'src/core/loader/build.ts':
          "import { preflight } from '../executor/entry-preflight.js'\nimport type { Finding } from '../lint/types.js'\n",
        'src/core/executor/gate.ts': "import type { SkillClass } from '../loader/build.js'\n",
      }),
      [
        'src/core/loader/build.ts:1: src/core/loader/ imports src/core/executor/entry-preflight.ts',
        'src/core/loader/build.ts:2: src/core/loader/ imports src/core/lint/types.ts',
      ],
    )
  })

  test('no command is allowed past cli: init works through its action like the others', async () => {
    assert.deepEqual(
      await check({ 'src/commands/init.ts': "import { initPack } from '../core/init/init.js'\n" }),
      ['src/commands/init.ts:1: commands imports src/core/init/init.ts (core)'],
    )
    assert.deepEqual(
      await check({ 'src/commands/init.ts': "const w = await import('../ui/init/run-wizard.js')\n" }),
      ['src/commands/init.ts:1: commands imports src/ui/init/run-wizard.ts (ui)'],
    )
  })

  test('every command file imports only the cli layer and oclif', async () => {
    const mod = await import(pathToFileURL(join(REPO, 'scripts/check-layers.mjs')).href)
    const importsOf = (mod as { importsOf: (text: string) => [string, number][] }).importsOf
    const commands = readdirSync(join(REPO, 'src/commands'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => join('src/commands', f))
    assert.ok(commands.includes('src/commands/init.ts'))
    const outside = commands.flatMap((file) =>
      importsOf(readFileSync(join(REPO, file), 'utf8'))
        .map(([spec]) => (spec.startsWith('.') ? relative(REPO, resolve(REPO, dirname(file), spec)) : spec))
        .filter((to) => !to.startsWith('src/cli/') && to !== '@oclif/core')
        .map((to) => `${file} imports ${to}`),
    )
    assert.deepEqual(outside, [])
  })

  test('a lint rule module is imported only from inside core/lint', async () => {
    assert.deepEqual(
      await check({
        'src/core/lint/registry.ts': "import a from './rules/practice-bom.js'\n",
        'src/core/lint/rules/practice-bom.ts':
          "import { b } from '../rule-kit/util.js'\nimport { c } from '../../practice.js'\n",
        'src/core/init/options.ts': "import { MAX } from '../lint/rules/practice-timeout-too-long.js'\n",
        'src/ui/lint/x.ts': "import type { R } from '../../core/lint/rules/util.js'\n",
      }),
      [
        'src/core/init/options.ts:1: src/core/lint/rules/practice-timeout-too-long.ts is imported from outside src/core/lint/',
        'src/ui/lint/x.ts:1: src/core/lint/rules/util.ts is imported from outside src/core/lint/',
      ],
    )
  })

  test('a rule imports no other rule; rule-kit/ is lint’s alone and imports no rule', async () => {
    assert.deepEqual(
      await check({
        'src/core/lint/rules/env-empty.ts':
          "import { envElements } from '../rule-kit/env.js'\nimport { x } from './env-invalid-name.js'\n",
        'src/core/lint/rules/schema-default-invalid.ts': "import type { R } from './schema-invalid.js'\n",
        'src/core/lint/rule-kit/env.ts':
          "import { a } from './util.js'\nimport b from '../rules/practice-bom.js'\n",
        'src/core/lint/context.ts': "import { casesOf } from './rule-kit/tests-util.js'\n",
        'src/core/marketplace/rules.ts': "import { pack } from '../lint/rule-kit/examples.js'\n",
      }),
      [
        'src/core/lint/rules/env-empty.ts:2: a rule imports another rule: what they share goes to src/core/lint/rule-kit/ (src/core/lint/rules/env-invalid-name.ts)',
        'src/core/lint/rules/schema-default-invalid.ts:1: a rule imports another rule: what they share goes to src/core/lint/rule-kit/ (src/core/lint/rules/schema-invalid.ts)',
        'src/core/lint/rule-kit/env.ts:2: src/core/lint/rule-kit/ imports src/core/lint/rules/practice-bom.ts',
        'src/core/marketplace/rules.ts:1: src/core/marketplace/ imports src/core/lint/rule-kit/examples.ts',
        'src/core/marketplace/rules.ts:1: src/core/lint/rule-kit/examples.ts is imported from outside src/core/lint/',
      ],
    )
  })
})

type Circles = (files?: string[], read?: (file: string) => string, allowed?: string[][]) => string[]

/** The circles found in a tree given as file → text, with an allow-list (none by default). */
async function circlesIn(tree: Record<string, string>, allowed: string[][] = []): Promise<string[]> {
  const mod = await import(pathToFileURL(join(REPO, 'scripts/check-layers.mjs')).href)
  return (mod as { circles: Circles }).circles(Object.keys(tree), (f) => tree[f]!, allowed)
}

describe('import circles across folders (scripts/check-layers.mjs)', () => {
  test('the source tree has none but those allowed', async () => {
    const mod = await import(pathToFileURL(join(REPO, 'scripts/check-layers.mjs')).href)
    assert.deepEqual((mod as { circles: Circles }).circles(), [])
  })

  test('a circle between two folders fails with its files named, type-only imports included', async () => {
    assert.deepEqual(
      await circlesIn({
        'src/core/go/gostring.ts': "import { decodeRune } from './unicode/utf8.js'\n",
        'src/core/go/unicode/utf8.ts': "import type { GoString } from '../gostring.js'\n",
      }),
      [
        'import circle across folders: src/core/go/gostring.ts, src/core/go/unicode/utf8.ts (src/core/go/gostring.ts → src/core/go/unicode/utf8.ts → src/core/go/gostring.ts)',
      ],
    )
  })

  test('a longer circle is named with one way round it; a circle inside one folder is not one', async () => {
    assert.deepEqual(
      await circlesIn({
        'src/cli/a.ts': "import { b } from './actions/b.js'\n",
        'src/cli/actions/b.ts': "export { c } from '../../ui/c.js'\n",
        'src/ui/c.ts': "const a = await import('../cli/a.js')\n",
        'src/ui/run.ts': "import { View } from './run-view.js'\n",
        'src/ui/run-view.tsx': "import type { Props } from './run.js'\n",
      }),
      [
        'import circle across folders: src/cli/a.ts, src/cli/actions/b.ts, src/ui/c.ts (src/cli/a.ts → src/cli/actions/b.ts → src/ui/c.ts → src/cli/a.ts)',
      ],
    )
  })

  test('an allowed circle passes; one that grew, or one gone from the tree, fails', async () => {
    const pair = {
      'src/cli/actions/run.ts': "import type RunCommand from '../../commands/run.js'\n",
      'src/commands/run.ts': "import { runAction } from '../cli/actions/run.js'\n",
    }
    const allowed = [['src/commands/run.ts', 'src/cli/actions/run.ts']]
    assert.deepEqual(await circlesIn(pair, allowed), [])
    const grown = await circlesIn(
      {
        ...pair,
        'src/commands/run.ts': `${pair['src/commands/run.ts']}import { x } from '../cli/x.js'\n`,
        'src/cli/x.ts': "import type R from '../commands/run.js'\n",
      },
      allowed,
    )
    assert.equal(grown.length, 2)
    assert.match(
      grown[0],
      /^import circle across folders: src\/cli\/actions\/run\.ts, src\/cli\/x\.ts, src\/commands\/run\.ts /,
    )
    assert.match(
      grown[1],
      /^the allowed import circle src\/cli\/actions\/run\.ts, src\/commands\/run\.ts is gone/,
    )
  })
})
