/**
 * `lint --print-config PATH`: the settings that apply to one file (which need not exist yet), with
 * where each came from: the rule's default, a config file's `rules:` key, or a --rule; the config
 * file itself (the nearest above the file, or --config), and whether its `ignore:` leaves the file
 * out.
 */
import { type GoString, toText } from '../../core/go/gostring.js'
import { abs, dir } from '../../core/go/path/filepath/path.js'
import { ConfigFinder, isIgnored, type LintConfig } from '../../core/lint/config.js'
import { knownIds, type Rule, type Setting } from '../../core/lint/types.js'
import { envelope } from '../../ui/envelope.js'
import { displayPath } from '../../ui/lint/model.js'
import { terminalText } from '../../ui/terminal.js'
import { EXIT } from '../errors.js'
import { argBytes } from '../os-bytes.js'
import { stdoutIsTTY, writeStdout } from '../output.js'

interface RuleSetting {
  rule_id: string
  severity: Setting
  /** default, config (a `rules:` key of the config file) or flag (a --rule). */
  source: 'default' | 'config' | 'flag'
  /** The `rules:` key or the --rule as written. */
  by?: string
}

const absolute = (text: string): GoString => {
  const p = argBytes(text)
  const a = abs(p)
  return a.ok ? a.value : (p as GoString)
}

export async function printConfig(
  file: string,
  opts: {
    rules: readonly Rule<never>[]
    overrides: ReadonlyMap<string, Setting>
    flagSources: ReadonlyMap<string, string>
    useConfig: boolean
    configPath?: string
    json: boolean
  },
): Promise<number> {
  const path = absolute(file)
  const ids = knownIds(opts.rules)
  let config: LintConfig | null = null
  if (opts.useConfig) {
    const finder = new ConfigFinder(
      ids,
      opts.configPath === undefined ? undefined : absolute(opts.configPath),
    )
    config = await finder.find(dir(path))
  }
  const rules: RuleSetting[] = opts.rules.map((r) => {
    const flag = opts.overrides.get(r.id)
    if (flag !== undefined)
      return { rule_id: r.id, severity: flag, source: 'flag', by: opts.flagSources.get(r.id) }
    const set = config?.rules.get(r.id)
    if (set !== undefined)
      return { rule_id: r.id, severity: set, source: 'config', by: config?.ruleSources.get(r.id) }
    return { rule_id: r.id, severity: r.severity, source: 'default' }
  })
  const cwd = process.cwd()
  const shownPath = displayPath(toText(path), cwd)
  const configShown = config === null ? null : displayPath(toText(config.path), cwd)
  const ignored = config !== null && isIgnored(config, path)
  if (opts.json) {
    writeStdout(
      `${JSON.stringify(
        envelope('lint', EXIT.ok, {
          config: {
            path: shownPath,
            file: configShown,
            ignored,
            ignore: config?.ignoreText ?? [],
            rules,
          },
        }),
        null,
        2,
      )}\n`,
    )
    return EXIT.ok
  }
  const width = Math.max(...rules.map((r) => r.rule_id.length))
  let out = `${shownPath}\n`
  out += `config: ${configShown ?? (opts.useConfig ? 'none (no .ongrid-skill.yaml above it)' : 'none (--no-config)')}\n`
  if (config !== null && config.ignoreText.length > 0)
    out += `ignore: ${config.ignoreText.join(', ')}${ignored ? ' (this file is ignored)' : ''}\n`
  out += 'rules:\n'
  for (const r of rules) {
    const from =
      r.source === 'default'
        ? 'default'
        : r.source === 'flag'
          ? `--rule ${r.by ?? ''}`
          : `${configShown}: ${r.by ?? r.rule_id}`
    out += `  ${r.rule_id.padEnd(width)}  ${r.severity.padEnd(5)}  ${from}\n`
  }
  writeStdout(terminalText(out, stdoutIsTTY()))
  return EXIT.ok
}
