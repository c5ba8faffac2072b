/**
 * `--manager-version`: which ongrid manager release a command answers for. The flag, else
 * ONGRID_MANAGER_VERSION, else the config file's `manager_version` (the --config file, or the
 * nearest .ongrid-skill.yaml above the working dir; none with --no-config), else the newest
 * supported. Anything else is refused with one line (exit 2) before the command does anything.
 */
import { type GoString, toText } from '../core/go/gostring.js'
import { abs } from '../core/go/path/filepath/path.js'
import type { LintConfig } from '../core/lint/config.js'
import {
  chooseManagerRelease,
  isSupportedManagerVersion,
  MANAGER_VERSION_ENV,
  type ManagerVersionOrigin,
  managerRelease,
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

/** The config file that applies (the --config one, else the nearest above the working dir), if any. */
async function configOf(flags: ManagerVersionFlags): Promise<LintConfig | null> {
  if (flags['no-config'] === true) return null
  const { ConfigFinder } = await import('../core/lint/config.js')
  let explicit: GoString | undefined
  if (flags.config !== undefined) {
    const given = argBytes(flags.config)
    const a = abs(given)
    explicit = a.ok ? a.value : given
  }
  const cwd = abs('.')
  return new ConfigFinder(null, explicit).find(cwd.ok ? cwd.value : '.')
}

/**
 * The release the command answers for (UserError, exit 2, for one ongrid-skill has no facts of).
 * From then on every --json document names it (`manager_version`, ui/envelope.ts). When the
 * config's `default` manager profile has a session whose manager said another release (login,
 * whoami, diff), a warning says so on stderr.
 */
export async function managerReleaseOf(
  flags: ManagerVersionFlags,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ release: Release; origin: ManagerVersionOrigin }> {
  const config = await configOf(flags)
  const chosen = chooseManagerRelease({
    flag: flags['manager-version'],
    env: env[MANAGER_VERSION_ENV],
    config:
      config?.managerVersion === undefined
        ? undefined
        : { value: config.managerVersion, path: toText(config.path) },
  })
  answerFor(chosen.release.version)
  const profile = config?.managers?.get('default')
  if (profile !== undefined) await warnIfDeployedDiffers(profile.url, chosen.release, env)
  return chosen
}

/** The warning when the `default` profile's manager runs another release than the one answered for. */
async function warnIfDeployedDiffers(url: string, release: Release, env: NodeJS.ProcessEnv): Promise<void> {
  const [{ managerUrl }, { CredentialStore, credentialsPath }] = await Promise.all([
    import('../core/remote/http.js'),
    import('../core/remote/credentials.js'),
  ])
  let deployed: string | undefined
  let base: string
  try {
    base = managerUrl(url, true)
    deployed = new CredentialStore(credentialsPath(env)).get(base)?.manager_version
  } catch {
    return // a profile or store that cannot be read is remote's to report
  }
  if (deployed === undefined || deployed === release.version) return
  const fix = isSupportedManagerVersion(deployed)
    ? `--manager-version ${deployed} to answer for it`
    : 'not a release ongrid-skill knows'
  process.stderr.write(
    `ongrid-skill: warning: the default manager profile (${base}) runs ${JSON.stringify(deployed)}, this answers for ${release.version} (${fix})\n`,
  )
}

/**
 * The release a manager runs (GET /api/v1/version), for the commands that compare with it
 * (`remote diff`): its facts when ongrid-skill has them, else the newest's, said on stderr.
 */
export function deployedRelease(version: string, base: string, json: boolean): Release {
  const known = isSupportedManagerVersion(version)
  const release = managerRelease(known ? version : undefined)
  if (!known && !json)
    process.stderr.write(
      `ongrid-skill: ${base} runs manager ${JSON.stringify(version)}, not a release ongrid-skill knows: compared with ${release.version}'s facts\n`,
    )
  answerFor(release.version)
  return release
}

/** For the commands without a summary of their own: that line on stderr, unless the output is JSON. */
export function noteNotDefault(release: Release, json: boolean): void {
  const line = notDefaultText(release)
  if (line !== null && !json) process.stderr.write(`ongrid-skill: ${line}\n`)
}
