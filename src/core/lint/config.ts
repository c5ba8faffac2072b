/**
 * `.ongrid-skill.yaml` (or `.yml`), found upward from each checked file (the nearest one wins; no
 * merging), or the one file --config names, for every checked file:
 *
 *   rules:
 *     practice/*: warn               # an id, a prefix or a glob (rule-select.ts); in order
 *     practice/class-unset: off      # off | info | warn | error
 *   ignore:
 *     - vendor/**                    # globs relative to this file's dir
 *   manager_version: v0.12.0         # the manager release answered for (core/releases)
 *
 * The `yaml` package is imported only when such a file exists.
 */

import { firstLine } from '../errors.js'
import { globToRegExp, matchesAny } from '../glob.js'
import { fromBuffer, type GoString, toBuffer, toText } from '../go/gostring.js'
import { errnoFromNode } from '../go/os/errors.js'
import { statIfAny } from '../go/os/file.js'
import { dir, join, rel } from '../go/path/filepath/path.js'
import type { Overlay } from '../overlay.js'
import { NotRegularError, readFileBounded, TooLargeError } from '../read-bounded.js'
import { didYouMean, meanHint } from '../suggest.js'
import { ConfigError, LIST_RULES_HINT } from './errors.js'
import { selectRules } from './rule-select.js'
import { type Listing, notListed } from './targets.js'
import { type KnownIds, SETTINGS, type Setting, settingOf } from './types.js'

export const CONFIG_NAME = '.ongrid-skill.yaml'
/** The names a config file may have, in the order they are looked for; one dir may hold only one. */
export const CONFIG_NAMES = [CONFIG_NAME, '.ongrid-skill.yml'] as const

export interface LintConfig {
  /** Absolute path of the config file (byte string). */
  path: GoString
  dir: GoString
  rules: Map<string, Setting>
  /** The `rules:` key each setting of `rules` came from (an id, a prefix or a glob: rule-select.ts). */
  ruleSources: Map<string, string>
  ignore: RegExp[]
  /** The globs as written, for messages. */
  ignoreText: string[]
  /** `manager:` — named manager profiles for `remote` (`default` when no --profile); `ca` absolute. */
  managers?: Map<string, ManagerProfile>
  /** `manager_version:` — the manager release the commands answer for (below the flag and the env). */
  managerVersion?: string
}

/** One `manager:` profile: the manager's URL, and how to trust its certificate. */
export interface ManagerProfile {
  url: string
  ca?: string
  insecure?: boolean
}

/** `manager:` — a mapping of profile name to {url, ca?, insecure?}; `ca` relative to the config's dir. */
function managerProfiles(where: string, v: unknown, base: string): Map<string, ManagerProfile> {
  const bad = (what: string) =>
    new ConfigError(
      `${where}: manager: ${what}`,
      'e.g. manager: {default: {url: https://ongrid.example.com, ca: ca.pem}}',
    )
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw bad('expected a mapping of profile name to {url, ca}')
  const out = new Map<string, ManagerProfile>()
  for (const [name, p] of Object.entries(v as Record<string, unknown>)) {
    if (p === null || typeof p !== 'object' || Array.isArray(p))
      throw bad(`${name}: expected {url, ca, insecure}`)
    const { url, ca, insecure, ...rest } = p as Record<string, unknown>
    const extra = Object.keys(rest)
    if (extra.length > 0)
      throw bad(`${name}: unknown key ${JSON.stringify(extra[0])} (expected url, ca, insecure)`)
    if (typeof url !== 'string' || url === '') throw bad(`${name}: url: expected the manager's URL`)
    if (ca !== undefined && typeof ca !== 'string') throw bad(`${name}: ca: expected a PEM file's path`)
    if (insecure !== undefined && typeof insecure !== 'boolean')
      throw bad(`${name}: insecure: expected true or false`)
    out.set(name, {
      url,
      ...(ca === undefined ? {} : { ca: ca.startsWith('/') ? ca : `${base}/${ca}` }),
      ...(insecure === undefined ? {} : { insecure }),
    })
  }
  return out
}

export { ConfigError }

export class ConfigFinder {
  private byDir = new Map<GoString, LintConfig | null>()

  private explicitConfig: Promise<LintConfig> | null = null

  /**
   * `ruleIds`: the ids a config may name (null: any, for validate, which reads only `ignore`).
   * `explicit`: a config file (--config) that applies to every file instead of the nearest one.
   * `listings`: the dirs the walk listed (targets.ts): a config name not in its dir's listing
   * is not looked for on the disk. `overlay`: editors' buffers, read instead of the disk.
   */
  constructor(
    private readonly ruleIds: KnownIds | null,
    private readonly explicit?: GoString,
    private readonly listings?: ReadonlyMap<GoString, Listing>,
    private readonly overlay?: Overlay,
  ) {}

  /** The nearest config at or above `start` (a dir), or null; the --config file when given. */
  async find(start: GoString): Promise<LintConfig | null> {
    if (this.explicit !== undefined) {
      this.explicitConfig ??= loadConfig(this.explicit, this.ruleIds, this.overlay)
      return this.explicitConfig
    }
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
      const present = CONFIG_NAMES.filter((n) => !notListed(this.listings, d, n))
        .map((n) => join(d, n))
        .filter((c) => {
          const s = statIfAny(c)
          return s !== null && !s.isDir()
        })
      if (present.length > 1) {
        throw new ConfigError(
          `${toText(d)}: both ${CONFIG_NAMES.join(' and ')}: keep one (only one config applies to a dir)`,
        )
      }
      if (present.length === 1) {
        found = await loadConfig(present[0], this.ruleIds, this.overlay)
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

/** The most of a config file read: configs are a few lines; `/dev/zero` is not one. */
export const MAX_CONFIG_BYTES = 1024 * 1024

/** Reads a config file, bounded, never waiting on a FIFO (an editor's buffer when `overlay` holds one). */
function readConfigFile(path: GoString, overlay?: Overlay): { value: Buffer } {
  const buffer = overlay?.get(path)
  if (buffer !== undefined) return { value: buffer }
  try {
    return { value: readFileBounded(toBuffer(path), MAX_CONFIG_BYTES, { regularOnly: true }) }
  } catch (e) {
    if (e instanceof TooLargeError || e instanceof NotRegularError)
      throw new ConfigError(`${toText(path)}: ${e.message}`)
    const code = (e as NodeJS.ErrnoException).code
    const op = (e as NodeJS.ErrnoException).syscall === 'open' ? 'open' : 'read'
    if (code === undefined) throw e
    throw new ConfigError(`${toText(path)}: ${op} ${toText(path)}: ${toText(errnoFromNode(e).error())}`)
  }
}

/** Parses one config file. Throws ConfigError with a one-line reason. */
export async function loadConfig(
  path: GoString,
  ruleIds: KnownIds | null,
  overlay?: Overlay,
): Promise<LintConfig> {
  const where = toText(path)
  const file = readConfigFile(path, overlay)
  const { parse } = await import('yaml')
  let doc: unknown
  try {
    doc = parse(toText(fromBuffer(file.value)), { prettyErrors: true })
  } catch (e) {
    // The yaml package's errors carry the position: file:line:column, as editors read it.
    const pos = (e as { linePos?: { line: number; col: number }[] }).linePos?.[0]
    const at = pos ? `${where}:${pos.line}:${pos.col}` : where
    const message = firstLine((e as Error).message)
      .replace(/ at line \d+, column \d+:?$/, '')
      // The one text of the package's with a lone quote mark: said with the quotes paired.
      .replace(/^Missing closing (["'])quote$/, (_, q: string) =>
        q === '"' ? 'a "double-quoted" string is not closed' : "a 'single-quoted' string is not closed",
      )
    throw new ConfigError(`${at}: not valid YAML: ${message}`)
  }
  const config: LintConfig = {
    path,
    dir: dir(path),
    rules: new Map(),
    ruleSources: new Map(),
    ignore: [],
    ignoreText: [],
  }
  if (doc === null || doc === undefined) return config
  if (typeof doc !== 'object' || Array.isArray(doc))
    throw new ConfigError(`${where}: expected a mapping with rules: and ignore:`)
  for (const [k, v] of Object.entries(doc as Record<string, unknown>)) {
    if (k === 'rules') {
      if (v === null || v === undefined) continue
      if (typeof v !== 'object' || Array.isArray(v))
        throw new ConfigError(`${where}: rules: expected a mapping of rule id to off|info|warn|error`)
      for (const [id, setting] of Object.entries(v as Record<string, unknown>)) {
        const selected = ruleIds === null || ruleIds.has(id) ? [id] : selectRules(id, ruleIds)
        if (selected.length === 0)
          throw new ConfigError(
            `${where}: rules: unknown rule ${JSON.stringify(id)}`,
            meanHint(didYouMean(id, ruleIds ?? [])) ?? LIST_RULES_HINT,
          )
        const s = typeof setting === 'string' ? settingOf(setting) : undefined
        if (s === undefined) {
          throw new ConfigError(
            `${where}: rules: ${id}: expected off, info, warn or error, not ${JSON.stringify(setting)}`,
            typeof setting === 'string' ? meanHint(didYouMean(setting, SETTINGS)) : undefined,
          )
        }
        for (const r of selected) {
          config.rules.set(r, s)
          config.ruleSources.set(r, id)
        }
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
    } else if (k === 'manager') {
      if (v === null || v === undefined) continue
      config.managers = managerProfiles(where, v, toText(config.dir))
    } else if (k === 'manager_version') {
      if (v === null || v === undefined) continue
      if (typeof v !== 'string')
        throw new ConfigError(`${where}: manager_version: expected a release, as v0.13.4`)
      config.managerVersion = v
    } else if (k === '$schema') {
      // The JSON Schema an editor checks the file with (schemas/ongrid-skill.schema.json).
    } else {
      throw new ConfigError(
        `${where}: unknown key ${JSON.stringify(k)} (expected rules, ignore, manager, manager_version)`,
        meanHint(didYouMean(k, ['rules', 'ignore', 'manager', 'manager_version'])),
      )
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
