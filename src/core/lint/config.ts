/**
 * `.ongrid-skill.yaml`, found upward from each checked file (the nearest one wins; no merging):
 *
 *   rules:
 *     practice/class-unset: off      # off | info | warn | error
 *   ignore:
 *     - vendor/**                    # globs relative to this file's dir
 *
 * The `yaml` package is imported only when such a file exists.
 */
import { fromBuffer, type GoString, toText } from '../go/gostring.js'
import { readFile, stat } from '../go/os/file.js'
import { dir, join, rel } from '../go/path/filepath/path.js'
import { globToRegExp, matchesAny } from './glob.js'
import { SETTINGS, type Setting, settingOf } from './types.js'

export const CONFIG_NAME = '.ongrid-skill.yaml'

export interface LintConfig {
  /** Absolute path of the config file (byte string). */
  path: GoString
  dir: GoString
  rules: Map<string, Setting>
  ignore: RegExp[]
  /** The globs as written, for messages. */
  ignoreText: string[]
}

import { didYouMean, meanHint } from '../suggest.js'
import { ConfigError } from './errors.js'

export { ConfigError }

export class ConfigFinder {
  private byDir = new Map<GoString, LintConfig | null>()

  /** `ruleIds`: the ids a config may name. */
  constructor(private readonly ruleIds: ReadonlySet<string>) {}

  /** The nearest config at or above `start` (a dir), or null. */
  async find(start: GoString): Promise<LintConfig | null> {
    const visited: GoString[] = []
    let d = start
    let found: LintConfig | null = null
    for (;;) {
      const cached = this.byDir.get(d)
      if (cached !== undefined) {
        found = cached
        break
      }
      visited.push(d)
      const candidate = join(d, CONFIG_NAME)
      const s = stat(candidate)
      if (s.ok && !s.value.isDir()) {
        found = await loadConfig(candidate, this.ruleIds)
        break
      }
      const up = dir(d)
      if (up === d) break
      d = up
    }
    for (const v of visited) this.byDir.set(v, found)
    return found
  }
}

/** Parses one config file. Throws ConfigError with a one-line reason. */
export async function loadConfig(path: GoString, ruleIds: ReadonlySet<string>): Promise<LintConfig> {
  const where = toText(path)
  const file = readFile(path)
  if (!file.ok) throw new ConfigError(`${where}: ${toText(file.err.error())}`)
  const { parse } = await import('yaml')
  let doc: unknown
  try {
    doc = parse(toText(fromBuffer(file.value)), { prettyErrors: false })
  } catch (e) {
    throw new ConfigError(`${where}: not valid YAML: ${(e as Error).message.split('\n')[0]}`)
  }
  const config: LintConfig = { path, dir: dir(path), rules: new Map(), ignore: [], ignoreText: [] }
  if (doc === null || doc === undefined) return config
  if (typeof doc !== 'object' || Array.isArray(doc))
    throw new ConfigError(`${where}: expected a mapping with rules: and ignore:`)
  for (const [k, v] of Object.entries(doc as Record<string, unknown>)) {
    if (k === 'rules') {
      if (v === null || v === undefined) continue
      if (typeof v !== 'object' || Array.isArray(v))
        throw new ConfigError(`${where}: rules: expected a mapping of rule id to off|info|warn|error`)
      for (const [id, setting] of Object.entries(v as Record<string, unknown>)) {
        if (!ruleIds.has(id))
          throw new ConfigError(
            `${where}: rules: unknown rule ${JSON.stringify(id)}`,
            meanHint(didYouMean(id, ruleIds)) ?? 'see `ongrid-skill lint --list-rules`',
          )
        const s = typeof setting === 'string' ? settingOf(setting) : undefined
        if (s === undefined) {
          throw new ConfigError(
            `${where}: rules: ${id}: expected off, info, warn or error, not ${JSON.stringify(setting)}`,
            typeof setting === 'string' ? meanHint(didYouMean(setting, SETTINGS)) : undefined,
          )
        }
        config.rules.set(id, s)
      }
    } else if (k === 'ignore') {
      if (v === null || v === undefined) continue
      if (!Array.isArray(v) || !v.every((g) => typeof g === 'string')) {
        throw new ConfigError(`${where}: ignore: expected a list of globs`)
      }
      for (const g of v as string[]) {
        config.ignoreText.push(g)
        config.ignore.push(globToRegExp(g))
      }
    } else {
      throw new ConfigError(`${where}: unknown key ${JSON.stringify(k)} (expected rules, ignore)`)
    }
  }
  return config
}

/** Whether the config ignores this file (its path relative to the config's dir). */
export function isIgnored(config: LintConfig, file: GoString): boolean {
  if (config.ignore.length === 0) return false
  const r = rel(config.dir, file)
  if (!r.ok || r.value.startsWith('../') || r.value === '..') return false
  return matchesAny(toText(r.value), config.ignore)
}
