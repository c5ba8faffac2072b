/**
 * What the commands' specs (cli/specs/) name from the core in flags and help: environment variables
 * and option lists. (init's spec takes its defaults and choices from core/init/ itself: the other
 * specs do not load init's modules.)
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
