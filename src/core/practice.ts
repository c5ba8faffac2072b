import { SECOND } from './go/time/duration.js'

/**
 * The limits of good practice that both the `practice/*` lint rules and `init` hold a skill to
 * (init's checks and notes say what lint will say), kept apart from either.
 */

/** A description the LLM can pick the tool by: at least this many characters… */
export const MIN_DESCRIPTION = 20
/** …and at most this many (it is read on every turn). */
export const MAX_DESCRIPTION = 1024

/** The legacy agent's per-call deadline (agent.go: 15 s default). */
export const LLM_CALL_DEADLINE_NS = 15n * SECOND

/** Above this, a hung run holds a process (and a caller) too long. */
export const MAX_TIMEOUT_NS = 300n * SECOND
