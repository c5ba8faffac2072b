import { Args, Flags } from '@oclif/core'
import { BaseCommand, EXIT, UserError } from '../cli/base.js'
import { ByteWriter } from '../cli/output.js'
import { EXTERNAL_DIRS_ENV, splitExternalDirs } from '../core/dirs.js'
import { Explainer } from '../core/explain.js'
import { fromText, type GoString, toText } from '../core/go/gostring.js'
import { jsonRecord } from '../core/go/log/slog/slog.js'
import { nowNs } from '../core/go/time/format.js'
import { type LoaderEvent, type LoaderEventKind, loadDirs } from '../core/loader.js'
import { BUILTIN_SKILL_KEYS, Registry } from '../core/registry.js'
import { loadSummary, skillJson } from '../ui/load-dirs.js'

export default class LoadDirs extends BaseCommand {
  static override summary = "Replay the manager's boot-time skill loader over allow-list dirs"

  static override description =
    `Walks each DIR exactly as the ongrid manager's loader does at boot and prints the manager's log lines, byte for byte, on stdout (one per event). A summary goes to stderr.

Without DIR arguments the dirs come from ${EXTERNAL_DIRS_ENV}, split as the manager splits it (on ',' and ';', never ':'). The registry starts with the manager's builtin skill keys, so packs that reuse one are skipped as the manager skips them.`

  static override examples = [
    { description: 'Load the example packs', command: '<%= config.bin %> <%= command.id %> examples/skills' },
    {
      description: 'Use the same setting as the manager',
      command: `${EXTERNAL_DIRS_ENV}=/etc/ongrid/skills,/opt/skills <%= config.bin %> <%= command.id %>`,
    },
    {
      description: 'Print the manager’s JSON log records, with hints on stderr',
      command: '<%= config.bin %> <%= command.id %> /etc/ongrid/skills --log-format json --explain',
    },
    {
      description: 'Fail CI when any manifest is rejected',
      command: '<%= config.bin %> <%= command.id %> skills --strict',
    },
  ]

  static override strict = false
  static override enableJsonFlag = true

  static override args = {
    dir: Args.string({ description: 'allow-list dir (absolute, as the manager requires); repeatable' }),
  }

  static override flags = {
    'log-format': Flags.string({
      description:
        'text: the message lines; json: the manager’s slog JSON records, including the closing one',
      options: ['text', 'json'],
      default: 'text',
    }),
    builtins: Flags.string({
      description: 'comma-separated keys pre-registered instead of the manager’s builtin skills',
      exclusive: ['no-builtins'],
    }),
    'no-builtins': Flags.boolean({ description: 'start with an empty registry' }),
    explain: Flags.boolean({ description: 'after lines whose cause is not obvious, print a hint on stderr' }),
    strict: Flags.boolean({ description: 'exit 1 when any manifest was not registered' }),
  }

  async run(): Promise<unknown> {
    const { argv, flags } = await this.parse(LoadDirs)
    const json = this.jsonEnabled()
    const dirArgs = (argv as string[]).map(fromText)
    const envValue = process.env[EXTERNAL_DIRS_ENV]
    const dirs =
      dirArgs.length > 0
        ? dirArgs
        : splitExternalDirs(envValue === undefined ? undefined : fromText(envValue))
    if (dirs.length === 0) {
      throw new UserError(`no dirs: pass DIR arguments or set ${EXTERNAL_DIRS_ENV}`)
    }
    const builtins = flags['no-builtins']
      ? []
      : flags.builtins !== undefined
        ? flags.builtins
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s !== '')
            .map(fromText)
        : BUILTIN_SKILL_KEYS
    const registry = new Registry(builtins)
    const explainer = flags.explain ? new Explainer(registry) : null
    const out = new ByteWriter(process.stdout)
    const logJson = flags['log-format'] === 'json'
    const events: LoaderEvent[] = []
    const counts = new Map<LoaderEventKind, number>()
    const line = (msg: GoString, attrs: [string, string | number][]) => {
      if (json) return
      out.write(logJson ? jsonRecord(nowNs(), 'INFO', msg, attrs) : `${msg}\n`)
    }
    const hint = (hints: string[]) => {
      if (hints.length === 0 || json) return
      out.flush()
      process.stderr.write(hints.map((h) => `  hint: ${h}\n`).join(''))
    }
    const result = loadDirs(dirs, {
      registry,
      onWalkStart: explainer ? (root) => hint(explainer.forRoot(root)) : undefined,
      onEvent: (e) => {
        counts.set(e.kind, (counts.get(e.kind) ?? 0) + 1)
        if (json) events.push(e)
        line(e.message, [
          ['service', 'ongrid'],
          ['comp', 'skill-loader'],
        ])
        if (explainer) hint(explainer.forEvent(e))
      },
    })
    if (logJson && !json) {
      if (result.err) {
        out.write(
          jsonRecord(nowNs(), 'WARN', 'skill loader returned error', [
            ['service', 'ongrid'],
            ['loaded', result.count],
            ['err', result.err.error()],
          ]),
        )
      } else if (result.count > 0) {
        out.write(
          jsonRecord(nowNs(), 'INFO', 'subprocess skills loaded', [
            ['service', 'ongrid'],
            ['count', result.count],
          ]),
        )
      }
    }
    out.flush()
    const rejected =
      (counts.get('parse-error') ?? 0) + (counts.get('build-error') ?? 0) + (counts.get('duplicate') ?? 0)
    if (!json) process.stderr.write(`${loadSummary(result.count, counts)}\n`)
    const doc = json
      ? {
          dirs: dirs.map(toText),
          count: result.count,
          events: events.map((e) => ({
            kind: e.kind,
            path: toText(e.path),
            name: e.name === null ? null : toText(e.name),
            message: toText(e.message),
          })),
          skills: result.skills.map(skillJson),
        }
      : undefined
    if (flags.strict && rejected > 0) {
      if (json) this.logJson(doc)
      this.exit(EXIT.findings)
    }
    return doc
  }
}
