import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { type Command, Config, Help } from '@oclif/core'
import { EVAL_EXIT } from '../../src/cli/actions/eval.js'
import { INIT_EXIT } from '../../src/cli/actions/init.js'
import { RUN_EXIT } from '../../src/cli/actions/run.js'
import { TEST_EXIT } from '../../src/cli/actions/test.js'
import { commandFrom } from '../../src/cli/command-from.js'
import { type ManifestFlag, parse, tryFast } from '../../src/cli/fast.js'
import { type CommandSpec, exitCodesLine, exitKindsOf, flag, helpDescription } from '../../src/cli/spec.js'
import { FAST_ACTIONS } from '../../src/cli/specs/index.js'
import { OCLIF_ACTIONS } from '../../src/cli/specs/oclif-actions.js'
import { runSpec } from '../../src/cli/specs/run.js'
import { TRACE_EXIT } from '../../src/cli/trace.js'
import { REMOTE_EXIT } from '../../src/core/remote/http.js'
import { commandName, errorKind } from '../../src/ui/envelope.js'
import { EXIT_KINDS } from '../../src/ui/exit-kinds.js'

// Each command is described once, by its spec (src/cli/specs/): its oclif class, help, exit codes,
// the fast path's table and the input of its action are made from it.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

interface ManifestCommand {
  id: string
  summary?: string
  description?: string
  strict?: boolean
  args: Record<string, { name: string; required?: boolean; default?: string }>
  flags: Record<string, ManifestFlag>
}

const manifest: { commands: Record<string, ManifestCommand> } = JSON.parse(
  readFileSync(join(ROOT, 'oclif.manifest.json'), 'utf8'),
)
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))

/** Each command's spec, from its file (`<id, ':' as '-'>.ts`, exported as `<camelCase id>Spec`). */
const specs: CommandSpec[] = await Promise.all(
  Object.keys(manifest.commands).map(async (id) => {
    const mod = await import(`../../src/cli/specs/${id.replace(':', '-')}.js`)
    const name = `${id.replace(/[:-](\w)/g, (_: string, c: string) => c.toUpperCase())}Spec`
    return mod[name] as CommandSpec
  }),
)

/** oclif's own cached form of a command class: what `oclif manifest` writes for it. */
async function cached(C: Command.Class, id: string): Promise<ManifestCommand & Command.Cached> {
  const at = pathToFileURL(join(ROOT, 'node_modules/@oclif/core/lib/util/cache-command.js')).href
  const { cacheCommand } = (await import(at)) as {
    cacheCommand: (c: Command.Class) => Promise<Command.Cached>
  }
  // oclif names a command by its file; the class does not know its id.
  return { ...(await cacheCommand(C)), id } as ManifestCommand & Command.Cached
}

/** A command's --help text, as oclif renders it. */
async function helpText(cmd: Command.Cached): Promise<string> {
  const config = await Config.load(ROOT)
  class Rendered extends Help {
    text(c: Command.Cached): string {
      return this.formatCommand(c as Command.Loadable)
    }
  }
  return new Rendered(config).text(cmd)
}

describe('command specs (src/cli/specs/)', () => {
  test('one spec for each command of the manifest, under its own id, with its action and output schema', () => {
    assert.deepEqual(
      specs.map((s) => s.id),
      Object.keys(manifest.commands),
    )
    const withAction = [...Object.keys(FAST_ACTIONS), ...Object.keys(OCLIF_ACTIONS)].sort()
    const own = ['help', 'completion'] // their classes run oclif's own command list
    assert.deepEqual(
      withAction,
      Object.keys(manifest.commands)
        .filter((id) => !own.includes(id))
        .sort(),
    )
    for (const s of specs) {
      if (s.schema === null) assert.equal(s.json, false, `${s.id} has --json but no schema`)
      else
        assert.ok(existsSync(join(ROOT, 'schemas/output', s.schema)), `${s.id}: schemas/output/${s.schema}`)
    }
  })

  test('the manifest oclif wrote is the specs’: summary, help with the exit codes, args and flags', () => {
    for (const s of specs) {
      const m = manifest.commands[s.id]
      assert.equal(m.summary, s.summary, s.id)
      assert.equal(m.description, helpDescription(s), s.id)
      assert.ok(m.description?.endsWith(`\n\n${exitCodesLine(s.exits)}`), s.id)
      assert.deepEqual(Object.keys(m.args), Object.keys(s.args ?? {}), s.id)
      const own = Object.keys(m.flags).filter((f) => !(f === 'json' && s.json !== false && !s.flags?.json))
      assert.deepEqual(own, Object.keys(s.flags ?? {}), s.id)
    }
  })

  test('package.json names exactly the topics of the commands’ ids', () => {
    const topics = new Set(specs.flatMap((s) => (s.id.includes(':') ? [s.id.split(':')[0]] : [])))
    assert.deepEqual(Object.keys(pkg.oclif.topics).sort(), [...topics].sort())
  })

  test('the envelope’s kinds are the specs’ (src/ui/exit-kinds.ts, generated: scripts/gen-exit-kinds.mjs)', () => {
    assert.deepEqual(EXIT_KINDS, exitKindsOf(specs))
  })

  test('each exit code’s kind is the one its --json document carries', () => {
    for (const s of specs) {
      assert.ok(
        s.exits.some((e) => e.code === 0),
        `${s.id}: no exit 0`,
      )
      for (const e of s.exits) {
        const kind = e.code === 0 ? 'ok' : errorKind(commandName(s.id), e.code)
        assert.equal(kind, e.kind, `${s.id} exit ${e.code}`)
      }
    }
  })

  test('the codes the actions exit with are those their specs declare', () => {
    const codes = (...ids: string[]): Set<number> =>
      new Set(specs.filter((s) => ids.includes(s.id)).flatMap((s) => s.exits.map((e) => e.code)))
    const remote = specs.filter((s) => s.id.startsWith('remote:')).map((s) => s.id)
    const held: [string, Record<string, number>, string[]][] = [
      ['RUN_EXIT', RUN_EXIT, ['run']],
      ['TEST_EXIT', TEST_EXIT, ['test']],
      ['INIT_EXIT', INIT_EXIT, ['init']],
      ['EVAL_EXIT', EVAL_EXIT, ['eval']],
      ['TRACE_EXIT', TRACE_EXIT, ['run', 'test']],
      ['REMOTE_EXIT', REMOTE_EXIT, remote],
    ]
    // Each code of a table is declared by a command it serves (REMOTE_EXIT.failed: exec's only).
    for (const [name, table, ids] of held)
      for (const [what, code] of Object.entries(table))
        assert.ok(
          codes(...ids).has(code),
          `${name}.${what} (${code}) is not among ${ids.join(', ')}'s exit codes`,
        )
    // What every remote command can meet, each declares.
    for (const id of remote) for (const code of [3, 4, 5]) assert.ok(codes(id).has(code), `${id} ${code}`)
  })

  test('ARCHITECTURE.md’s exit code table has every code a spec declares, and no other', () => {
    const text = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8')
    const table = text.slice(text.indexOf('## Exit codes'))
    const rows = table.split('\n').filter((l) => /^\| [0-9]/.test(l))
    const listed = new Set(
      rows.flatMap(
        (r) =>
          r
            .split('|')[1]
            .match(/\b\d+\b(?! \+)/g)
            ?.map(Number) ?? [],
      ),
    )
    const declared = new Set(specs.flatMap((s) => s.exits.map((e) => e.code)).filter((c) => c < 128))
    // 70 is every command's (a bug), never a spec's.
    assert.deepEqual([...declared].sort(), [...listed].filter((c) => c !== 70).sort())
  })

  test('a changed spec: the class, its help, its exit codes and the fast path follow', async () => {
    const changed = {
      ...runSpec,
      summary: 'A changed summary',
      flags: { ...runSpec.flags, 'new-flag': flag.string({ description: 'a flag only this spec has' }) },
      exits: [...runSpec.exits, { code: 9, kind: 'timeout', help: 'a code only this spec has' }],
    } satisfies CommandSpec
    const cmd = await cached(commandFrom(changed), 'run')
    assert.equal(cmd.summary, 'A changed summary')
    assert.ok(cmd.description?.endsWith(', 9 a code only this spec has.'), cmd.description)
    // Words as oclif wraps them to the terminal's width.
    const help = (await helpText(cmd)).replace(/\s+/g, ' ')
    assert.match(help, /--new-flag=<value> a flag only this spec has/)
    assert.match(help, /Exit codes: 0 ok, 1 the skill failed, .*, 9 a code only this spec has\./)
    // The envelope's kind of the new code, from the table the specs make.
    assert.equal(errorKind('run', 9, exitKindsOf([changed])), 'timeout')
    assert.equal(errorKind('run', 9), 'usage')
    // The fast path parses by the manifest oclif writes from the class: the new flag is taken.
    assert.deepEqual(parse(cmd, ['./pack', '--new-flag', 'v'])?.flags['new-flag'], 'v')
    assert.equal(parse(manifest.commands.run, ['./pack', '--new-flag', 'v']), null)
    // Unchanged, the class is the one oclif wrote into the manifest.
    const same = await cached(commandFrom(runSpec), 'run')
    assert.deepEqual(JSON.parse(JSON.stringify(same.flags)), manifest.commands.run.flags)
    assert.equal(same.description, manifest.commands.run.description)
  })

  test('the fast path runs the commands of its list, a new topic’s too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ongrid-specs-'))
    const at = pathToFileURL(join(dir, 'manifest.json'))
    let ran: unknown = null
    const spec = {
      id: 'zz:top',
      summary: 'a command of a new topic',
      description: 'only here',
      examples: [],
      flags: { word: flag.string({ description: 'a word' }) },
      exits: [{ code: 0, kind: 'ok', help: 'ok' }],
      schema: null,
      json: false,
    } satisfies CommandSpec
    writeFileSync(at, JSON.stringify({ commands: { 'zz:top': await cached(commandFrom(spec), 'zz:top') } }))
    const saved = process.exitCode
    try {
      const action = async () => async (input: never) => {
        ran = input
        return 0
      }
      OCLIF_ACTIONS['zz:top'] = action
      assert.equal(await tryFast(['zz', 'top', '--word', 'w'], at), false, 'an oclif command')
      assert.equal(ran, null)
      FAST_ACTIONS['zz:top'] = action
      assert.equal(await tryFast(['zz', 'top', '--word', 'w'], at), true)
      assert.deepEqual(ran, { args: {}, argv: [], flags: { word: 'w' } })
    } finally {
      delete FAST_ACTIONS['zz:top']
      delete OCLIF_ACTIONS['zz:top']
      process.exitCode = saved
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
