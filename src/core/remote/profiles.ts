import { UserError } from '../errors.js'
import { fromText, toText } from '../go/gostring.js'
import type { CredentialStore } from './credentials.js'
import { managerUrl } from './http.js'

/** The environment variable naming the manager (after --manager, before the credential store). */
export const MANAGER_ENV = 'ONGRID_MANAGER_URL'

/** The manager a command talks to, and how its certificate is trusted (from a profile). */
export interface ManagerChoice {
  base: string
  ca?: string
  insecure?: boolean
}

/**
 * Which manager: `given` (--manager, else $ONGRID_MANAGER_URL), else the `manager:` profile
 * (`profile`, else `default`) of the nearest .ongrid-skill.yaml at or above `cwd`, else the one
 * manager the credential store knows.
 */
export async function chooseManager(o: {
  given: string | undefined
  profile: string | undefined
  allowHttp: boolean
  store: CredentialStore
  cwd: string
}): Promise<ManagerChoice> {
  if (o.given !== undefined && o.given !== '') return { base: managerUrl(o.given, o.allowHttp) }
  // The config file is lint's as well: its reader (and the yaml package) load only here.
  const { ConfigFinder } = await import('../lint/config.js')
  const config = await new ConfigFinder(null).find(fromText(o.cwd))
  const name = o.profile ?? 'default'
  const profile = config?.managers?.get(name)
  if (profile !== undefined)
    return { base: managerUrl(profile.url, o.allowHttp), ca: profile.ca, insecure: profile.insecure }
  if (o.profile !== undefined) {
    throw new UserError(
      config?.managers
        ? `--profile ${o.profile}: ${toText(config.path)} has no such manager profile (it has ${[...config.managers.keys()].join(', ')})`
        : `--profile ${o.profile}: no manager: profiles in ${config ? toText(config.path) : 'a .ongrid-skill.yaml here or above'}`,
    )
  }
  const known = o.store.managers()
  if (known.length === 1) return { base: known[0] }
  throw new UserError(
    known.length === 0
      ? `which manager? give --manager https://host, set ${MANAGER_ENV}, or a manager: profile in .ongrid-skill.yaml`
      : `logged in to ${known.length} managers: say which with --manager or ${MANAGER_ENV}`,
  )
}
