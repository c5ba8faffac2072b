/**
 * What the commands' flags and help name from the core: environment variables and option lists.
 * Commands import from cli only (ARCHITECTURE.md, Layers); this is their door to these values.
 * (init's defaults and choices come with its action, cli/actions/init.ts, which loads them
 * anyway: the other commands' modules do not load init's.)
 */

/** `eval`: the manager's default model and the profiles of its builtin tools. */
export { DEFAULT_MODEL as EVAL_DEFAULT_MODEL, PROFILES as EVAL_PROFILES } from '../core/agent/request.js'
export { DB_DIALECT_ENV, DB_DSN_ENV, DB_PATH_ENV } from '../core/audit/dsn.js'
export { ROLES } from '../core/executor/gate.js'
export { BASELINE_NAME } from '../core/lint/baseline.js'
export { SEVERITIES } from '../core/lint/types.js'
export { EXTERNAL_DIRS_ENV } from '../core/loader/dirs.js'
export { DEVMODE_ENV, PINNED_PUBKEY_ENV, REQUIRE_SIGNED_ENV } from '../core/marketplace/install.js'
export {
  DEFAULT_MANAGER_VERSION,
  MANAGER_VERSION_ENV,
  SUPPORTED_MANAGER_VERSIONS,
} from '../core/releases/release.js'
