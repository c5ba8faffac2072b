import type { Action } from '../errors.js'

/**
 * The commands oclif always runs, by id, with their actions: they wait on a terminal or the network,
 * not on Node's start (the fast path's bundle leaves them out). help and completion have none: they
 * read oclif's own command list.
 */
export const OCLIF_ACTIONS: Record<string, () => Promise<Action<never>>> = {
  init: async () => (await import('../actions/init.js')).initAction,
  'remote:bind': async () => (await import('../actions/remote.js')).remoteBindAction,
  'remote:diff': async () => (await import('../actions/remote.js')).remoteDiffAction,
  'remote:exec': async () => (await import('../actions/remote.js')).remoteExecAction,
  'remote:get': async () => (await import('../actions/remote.js')).remoteGetAction,
  'remote:installed': async () => (await import('../actions/remote.js')).remoteInstalledAction,
  'remote:login': async () => (await import('../actions/remote.js')).remoteLoginAction,
  'remote:logout': async () => (await import('../actions/remote.js')).remoteLogoutAction,
  'remote:ls': async () => (await import('../actions/remote.js')).remoteLsAction,
  'remote:push': async () => (await import('../actions/remote.js')).remotePushAction,
  'remote:registries': async () => (await import('../actions/remote.js')).remoteRegistriesAction,
  'remote:uninstall': async () => (await import('../actions/remote.js')).remoteUninstallAction,
  'remote:whoami': async () => (await import('../actions/remote.js')).remoteWhoamiAction,
}
