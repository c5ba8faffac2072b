/**
 * `--manager-version`: which ongrid manager release a command answers for. The flag, else
 * ONGRID_MANAGER_VERSION, else the config file's `manager_version` (the --config file, or the
 * nearest .ongrid-skill.yaml above the working dir; none with --no-config), else the newest
 * supported. Anything else is refused with one line (exit 2) before the command does anything.
 */
import { type GoString, toText } from '../core/go/gostring.js'
import { abs } from '../core/go/path/filepath/path.js'
import {
  chooseManagerRelease,
  MANAGER_VERSION_ENV,
  type ManagerVersionOrigin,
  notDefaultText,
  type Release,
} from '../core/releases/release.js'
import { answerFor } from '../ui/envelope.js'
import { argBytes } from './os-bytes.js'

/** The flags a command with --manager-version has (those with a config file have the other two). */
export interface ManagerVersionFlags {
  'manager-version'?: string
  config?: string
  'no-config'?: boolean
}

/** The config file's `manager_version`, and where it was read. */
async function fromConfig(flags: ManagerVersionFlags): Promise<{ value: string; path: string } | undefined> {
  if (flags['no-config'] === true) return undefined
  const { ConfigFinder } = await import('../core/lint/config.js')
  let explicit: GoString | undefined
  if (flags.config !== undefined) {
    const given = argBytes(flags.config)
    const a = abs(given)
    explicit = a.ok ? a.value : given
  }
  const cwd = abs('.')
  const config = await new ConfigFinder(null, explicit).find(cwd.ok ? cwd.value : '.')
  if (config?.managerVersion === undefined) return undefined
  return { value: config.managerVersion, path: toText(config.path) }
}

/**
 * The release the command answers for (UserError, exit 2, for one ongrid-skill has no facts of).
 * From then on every --json document names it (`manager_version`, ui/envelope.ts).
 */
export async function managerReleaseOf(
  flags: ManagerVersionFlags,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ release: Release; origin: ManagerVersionOrigin }> {
  const flag = flags['manager-version']
  const fromEnv = env[MANAGER_VERSION_ENV]
  const named = flag !== undefined || (fromEnv !== undefined && fromEnv !== '')
  const chosen = chooseManagerRelease({
    flag,
    env: fromEnv,
    config: named ? undefined : await fromConfig(flags),
  })
  answerFor(chosen.release.version)
  return chosen
}

/** For the commands without a summary of their own: that line on stderr, unless the output is JSON. */
export function noteNotDefault(release: Release, json: boolean): void {
  const line = notDefaultText(release)
  if (line !== null && !json) process.stderr.write(`ongrid-skill: ${line}\n`)
}
