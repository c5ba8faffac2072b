/**
 * The manager release a command answers for, and what that release's facts are (facts.ts, one
 * entry per release). Code asks a Release for its keys, tools and fields; no code compares version
 * strings.
 */
import { UserError } from '../errors.js'
import { type Fact, RELEASES, type ReleaseEntry } from './facts.js'

/** The environment variable that names the release (below the flag, above the config key). */
export const MANAGER_VERSION_ENV = 'ONGRID_MANAGER_VERSION'

/** The config file's key (`.ongrid-skill.yaml`). */
export const MANAGER_VERSION_KEY = 'manager_version'

type Kind = 'builtinSkillKeys' | 'legacyAgentTools' | 'graphAgentTools' | 'agentFields'
const KINDS: readonly Kind[] = ['builtinSkillKeys', 'legacyAgentTools', 'graphAgentTools', 'agentFields']

/** Where a fact was read: the release whose entry adds it, and `file:line` at that tag. */
export interface FactSource {
  version: string
  at: string
}

/** One manager release's facts, every list in the order the manager registers or declares them. */
export interface Release {
  version: string
  commit: string
  /** The newest release: the default when nothing names one. */
  isDefault: boolean
  builtinSkillKeys: readonly string[]
  legacyAgentTools: readonly string[]
  graphAgentTools: readonly string[]
  /** The yaml tags chatruntime.Agent decodes. */
  agentFields: ReadonlySet<string>
  /** Where a fact of this release was read, or null when the release has no such fact. */
  source(kind: Kind, name: string): FactSource | null
}

/** The releases supported, oldest first. */
export const SUPPORTED_MANAGER_VERSIONS: readonly string[] = RELEASES.map((r) => r.version)

/** The newest supported release: what a command answers for when nothing names one. */
export const DEFAULT_MANAGER_VERSION: string =
  SUPPORTED_MANAGER_VERSIONS[SUPPORTED_MANAGER_VERSIONS.length - 1]

const folded = new Map<string, Release>()

function fold(upTo: number): Release {
  const entry: ReleaseEntry = RELEASES[upTo]
  const sources = new Map<string, FactSource>()
  const lists: Record<Kind, string[]> = {
    builtinSkillKeys: [],
    legacyAgentTools: [],
    graphAgentTools: [],
    agentFields: [],
  }
  for (const e of RELEASES.slice(0, upTo + 1)) {
    for (const kind of KINDS) {
      for (const [name, at] of (e[kind] ?? []) as readonly Fact[]) {
        const key = `${kind}\0${name}`
        if (sources.has(key)) continue
        sources.set(key, { version: e.version, at })
        lists[kind].push(name)
      }
    }
  }
  return {
    version: entry.version,
    commit: entry.commit,
    isDefault: entry.version === DEFAULT_MANAGER_VERSION,
    builtinSkillKeys: lists.builtinSkillKeys,
    legacyAgentTools: lists.legacyAgentTools,
    graphAgentTools: lists.graphAgentTools,
    agentFields: new Set(lists.agentFields),
    source: (kind, name) => sources.get(`${kind}\0${name}`) ?? null,
  }
}

/** What a human summary says when the release answered for is not the default (null when it is). */
export function notDefaultText(release: Release): string | null {
  return release.isDefault
    ? null
    : `answered for ongrid manager ${release.version} (the newest supported is ${DEFAULT_MANAGER_VERSION})`
}

/** Whether ongrid-skill has the facts of this release. */
export function isSupportedManagerVersion(version: string): boolean {
  return SUPPORTED_MANAGER_VERSIONS.includes(version)
}

/** The facts of a supported release (default: the newest); a UserError (exit 2) for any other. */
export function managerRelease(version: string = DEFAULT_MANAGER_VERSION): Release {
  const at = SUPPORTED_MANAGER_VERSIONS.indexOf(version)
  if (at < 0) throw unsupported(version, '')
  let r = folded.get(version)
  if (r === undefined) {
    r = fold(at)
    folded.set(version, r)
  }
  return r
}

/** The legacy agent's tool names at this release (default: the newest). */
export function legacyAgentToolNames(version: string = DEFAULT_MANAGER_VERSION): readonly string[] {
  return managerRelease(version).legacyAgentTools
}

/** The graph agent's tool names at this release (default: the newest). */
export function graphAgentToolNames(version: string = DEFAULT_MANAGER_VERSION): readonly string[] {
  return managerRelease(version).graphAgentTools
}

/** The one line that refuses a release ongrid-skill has no facts for; `from` says who named it. */
function unsupported(version: string, from: string): UserError {
  return new UserError(
    `${from}unsupported manager version ${JSON.stringify(version)}: supported are ${SUPPORTED_MANAGER_VERSIONS.join(', ')}`,
  )
}

/** Where the release was named, for the summary and the refusal. */
export type ManagerVersionOrigin = 'flag' | 'env' | 'config' | 'default'

/**
 * The release a command answers for: the flag, else the environment variable, else the config
 * file's key, else the newest. A value that is not a supported release is refused with one line
 * (UserError, exit 2) naming where it came from and the releases supported.
 */
export function chooseManagerRelease(given: {
  flag?: string
  env?: string
  config?: { value: string; path: string }
}): { release: Release; origin: ManagerVersionOrigin } {
  const pick: [string, ManagerVersionOrigin, string] | null =
    given.flag !== undefined
      ? [given.flag, 'flag', '--manager-version: ']
      : given.env !== undefined && given.env !== ''
        ? [given.env, 'env', `${MANAGER_VERSION_ENV}: `]
        : given.config !== undefined
          ? [given.config.value, 'config', `${given.config.path}: ${MANAGER_VERSION_KEY}: `]
          : null
  if (pick === null) return { release: managerRelease(), origin: 'default' }
  const [value, origin, from] = pick
  if (!isSupportedManagerVersion(value)) throw unsupported(value, from)
  return { release: managerRelease(value), origin }
}
