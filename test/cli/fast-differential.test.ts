import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { before, describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { type Command, Config } from '@oclif/core'
import { actionInput } from '../../src/cli/base.js'
import type { ManifestFlag } from '../../src/cli/fast.js'
import { parse } from '../../src/cli/fast.js'
import { Rand } from '../differential/rand.js'

// The fast path's parser (src/cli/fast.ts, driven by the shipped manifest) against oclif's own, on
// generated command lines: random mixes of each command's flags (long, `=`, short, negated,
// repeated), values (valid, off the option list, empty, looking like flags), positionals, `--`,
// unknown flags. Whatever the fast path accepts, oclif must parse to the same args, argv and flags
// (the action then runs on the same input either way); whatever oclif refuses, the fast path must
// refuse too (and leave it to oclif, whose error is then printed). The fast path may also leave to
// oclif what oclif accepts, but only the forms it defers on purpose (`deferred` below).

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const SEED = Number(process.env.FUZZ_SEED ?? 13)
const PER_COMMAND = Number(process.env.FAST_DIFF_CASES ?? 400)

interface ManifestCommand {
  id: string
  strict?: boolean
  args: Record<string, { name: string; required?: boolean }>
  flags: Record<string, ManifestFlag>
}

const manifest: { commands: Record<string, ManifestCommand> } = JSON.parse(
  readFileSync(`${ROOT}oclif.manifest.json`, 'utf8'),
)

/** The commands the fast path runs (src/cli/fast.ts, ACTIONS). */
const FAST_IDS = [
  'load-dirs',
  'run',
  'validate',
  'lint',
  'audit:tail',
  'test',
  'marketplace:check',
  'marketplace:verify',
  'marketplace:keygen',
  'marketplace:sign',
  'marketplace:pack',
  'mcp',
]

type Parsed = { args: Record<string, unknown>; argv: unknown[]; flags: Record<string, unknown> }
type Outcome = { ok: true; value: Parsed } | { ok: false; error: string }

let config: Config
before(async () => {
  config = await Config.load(ROOT)
  // oclif reads a missing argument from a piped stdin: make one look piped, with text on it.
  Object.defineProperty(process.stdin, 'isTTY', { value: false, configurable: true })
  const g = globalThis as { oclif?: Record<string, unknown> }
  g.oclif = { ...g.oclif, stdinCache: 'FROM-STDIN' }
})

/** What the action gets from oclif for argv: `this.parse` as in the command's run(), then runAction. */
async function oclifParse(id: string, argv: string[]): Promise<Outcome> {
  const C = (await config.findCommand(id)?.load()) as unknown as Command.Class & {
    prototype: { parse(o: unknown, a: string[]): Promise<Parsed> }
  }
  const cmd = new (
    C as unknown as new (
      a: string[],
      c: Config,
    ) => { parse(o: unknown, a: string[]): Promise<Parsed> }
  )(argv, config)
  try {
    const { args, argv: rest, flags } = actionInput(await cmd.parse(C, argv))
    return { ok: true, value: { args: defined(args), argv: rest, flags: defined(flags) } }
  } catch (e) {
    return { ok: false, error: `${(e as Error).constructor.name}: ${(e as Error).message}` }
  }
}

function defined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))
}

/** Values a flag may be given: its options, near misses, the empty string, flag look-alikes. */
function value(r: Rand, cmd: ManifestCommand, f: ManifestFlag): string {
  const other = r.pick(Object.values(cmd.flags))
  return r.weighted<() => string>([
    [6, () => (f.options ? r.pick(f.options) : r.pick(['x', 'a/b', '10s', '5', 'k=v', '0']))],
    [1, () => (f.options ? `${r.pick(f.options)}x` : 'y')],
    [1, () => ''],
    [1, () => `--${other.name}`],
    [1, () => (other.char ? `-${other.char}` : '-')],
    [1, () => r.pick(['-1', '-x', '--', '--bogus', '-', 'a=b', `--${other.name}=v`])],
  ])()
}

/** One token or a few (a flag and its value), drawn from the command's definition. */
function tokens(r: Rand, cmd: ManifestCommand): string[] {
  const flags = Object.values(cmd.flags)
  const f = r.pick(flags)
  return r.weighted<() => string[]>([
    [3, () => [r.pick(['a', 'dir/x', '.', '/abs', 'x y', '-', '-1', 'true'])]],
    [1, () => ['--']],
    [
      8,
      () =>
        f.type === 'boolean'
          ? [
              r.pick([
                `--${f.name}`,
                `--${f.name}`,
                `--no-${f.name}`,
                `--${f.name}=${r.pick(['true', 'false', ''])}`,
              ]),
            ]
          : r.chance(0.6)
            ? [`--${f.name}`, value(r, cmd, f)]
            : [`--${f.name}=${value(r, cmd, f)}`],
    ],
    [
      2,
      () => {
        const c = flags.filter((x) => x.char)
        if (c.length === 0) return [`--${f.name}`]
        const g = r.pick(c)
        if (g.type === 'boolean')
          return [r.pick([`-${g.char}`, `-${g.char}${r.pick(c).char}`, `-${g.char}=x`])]
        return r.chance(0.7) ? [`-${g.char}`, value(r, cmd, g)] : [`-${g.char}${value(r, cmd, g)}`]
      },
    ],
    [1, () => [r.pick(['--bogus', '--no-bogus', '-Z', '--bogus=1', '--json', '--help', '-h', '---x'])]],
  ])()
}

function argvFor(r: Rand, cmd: ManifestCommand): string[] {
  const out: string[] = []
  const n = r.range(0, 6)
  for (let i = 0; i < n; i++) out.push(...tokens(r, cmd))
  return out
}

/**
 * The forms the fast path leaves to oclif on purpose, though oclif may accept them: help, short
 * flags with more than their letter (`-qf`, `-n5`, `-n=5`), a value given to a boolean with `=`
 * (oclif then takes the value as an argument), a negative number where a flag could be.
 */
function deferred(cmd: ManifestCommand, argv: string[]): string | undefined {
  // Every token is looked at, after a `--` too: there it may be the value of a flag.
  for (const t of argv) {
    if (t === '--help' || t === '-h') return 'help'
    if (/^-\d/.test(t)) return 'a negative number (oclif: an argument, when no flag has that letter)'
    if (/^-[^-]./.test(t)) return 'short flag with more than its letter'
    const m = /^--([^=]+)=/.exec(t)
    const f = m && (cmd.flags[m[1]] ?? cmd.flags[m[1].replace(/^no-/, '')])
    if (f && f.type === 'boolean') return 'boolean flag with =value'
  }
  return undefined
}

/** How the two parsers disagree on argv, or undefined. */
async function disagreement(id: string, argv: string[]): Promise<string | undefined> {
  const cmd = manifest.commands[id]
  const fast = parse(cmd as Parameters<typeof parse>[0], argv)
  const oclif = await oclifParse(id, argv)
  const shown = `${id} ${JSON.stringify(argv)}`
  if (fast !== null) {
    const got = { args: defined(fast.args), argv: fast.argv, flags: fast.flags }
    if (!oclif.ok) return `${shown}: fast path accepts, oclif refuses (${oclif.error})`
    if (!isDeepEqual(got, oclif.value))
      return `${shown}: fast ${JSON.stringify(got)} ≠ oclif ${JSON.stringify(oclif.value)}`
  } else if (oclif.ok && deferred(cmd, argv) === undefined) {
    return `${shown}: oclif accepts ${JSON.stringify(oclif.value)}, the fast path leaves it to oclif`
  }
  return undefined
}

describe('fast path parser vs oclif', () => {
  test('the disagreements found, each', async () => {
    const cases: [string, string[]][] = [
      ['load-dirs', []], // oclif read a missing argument from a piped stdin
      ['run', ['p', '--json']],
      ['run', ['/abs']], // a boolean's default: true, which the manifest does not keep
      ['lint', ['--rule', 'practice/class-unset=off', 'dir']], // oclif's multiple flags took what followed
      ['marketplace:check', ['--require-signed', 'local', 'my-pack']],
      ['audit:tail', ['--lines=5']], // oclif's integer flag gave a number, the fast path a string
      ['audit:tail', ['-n', '1e2']],
      ['marketplace:sign', ['pack']], // a required flag missing
      ['marketplace:check', []], // an argument's default
      ['run', ['p', '--root', '--quiet']], // a value that names a flag
      ['run', ['p', '--root=-q']],
      ['mcp', ['--jobs', '--no-audit']],
      ['load-dirs', ['/a', '/b', '/a']], // oclif's argv sorted by first appearance
      ['load-dirs', ['--explain', '--', '--explain']],
    ]
    const problems = []
    for (const [id, argv] of cases) problems.push(await disagreement(id, argv))
    assert.deepEqual(
      problems.filter((p) => p !== undefined),
      [],
    )
  })

  for (const [k, id] of FAST_IDS.entries()) {
    test(`${id}: generated argv`, async () => {
      assert.ok(manifest.commands[id], `${id} is in the manifest`)
      const r = new Rand(SEED * 1000 + k)
      const problems: string[] = []
      for (let i = 0; i < PER_COMMAND && problems.length < 20; i++) {
        const p = await disagreement(id, argvFor(r, manifest.commands[id]))
        if (p !== undefined) problems.push(p)
      }
      assert.deepEqual(problems, [])
    })
  }
})

function isDeepEqual(a: unknown, b: unknown): boolean {
  try {
    assert.deepStrictEqual(a, b)
    return true
  } catch {
    return false
  }
}
