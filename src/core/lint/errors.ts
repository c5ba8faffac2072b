import { EXIT, UserError } from '../errors.js'

/** The hint for an unknown rule id when no known one is near. */
export const LIST_RULES_HINT = 'see `ongrid-skill lint --list-rules`'

/** A PATH that cannot be checked at all: a usage error (exit 2), never "0 files, all good". */
export class PathError extends UserError {}

/** A config file that cannot be used: a tool error (exit 2), never a finding. */
export class ConfigError extends UserError {
  /** `hint`: one line that says what to do (`did you mean "practice/class-unset"?`). */
  constructor(message: string, hint?: string) {
    super(message, EXIT.usage, hint)
  }
}
