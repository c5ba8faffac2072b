/**
 * Option lists and defaults a spec's help names and its action uses, in a module of their own that
 * imports nothing: an action loads no help text for them.
 */

/** `test --format`. */
export const TEST_FORMATS = ['spec', 'tap', 'junit', 'json'] as const

/** `eval --format`. */
export const EVAL_FORMATS = ['stylish', 'junit'] as const

/** `mcp`: calls running at once, unless --jobs says otherwise. */
export const DEFAULT_JOBS = 8
/** `mcp --http`: how long a session may go without a request before it is ended, unless --session-idle says otherwise. */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60 * 1000
/** `mcp --http`: sessions at once, unless --max-sessions says otherwise. */
export const DEFAULT_MAX_SESSIONS = 100
