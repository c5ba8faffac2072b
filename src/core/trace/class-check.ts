/**
 * A run's effects held to its skill's class. A `safe` skill runs for every role without
 * confirmation and is offered to the LLM: any change it makes to the host is a finding (a file
 * created, written, truncated, deleted, renamed, re-moded or re-owned; a signal to a process it did
 * not start; a privilege or namespace change; the start of a command known to change state). A
 * `mutating` skill that did none of these gets an info finding: `safe` would let the LLM use it.
 */

import { stateCommand } from './commands.js'
import { type Effect, effectLine } from './effects.js'

export interface EffectFinding {
  severity: 'error' | 'info'
  message: string
  /** The effect's index in the run's list, when the finding is about one. */
  effect: number | null
}

const CHANGES = new Set([
  'create',
  'write',
  'truncate',
  'delete',
  'rename',
  'chmod',
  'chown',
  'signal',
  'privilege',
])

/** What makes an effect a change of state, or null when it is not one. */
export function changeReason(e: Effect): string | null {
  if (CHANGES.has(e.kind)) return e.kind
  if (e.kind === 'exec') {
    const c = stateCommand(e.argv ?? [], e.path ?? '')
    return c === null || c.seenAs !== undefined ? null : c.reason
  }
  return null
}

export function holdToClass(skillClass: string, list: readonly Effect[]): EffectFinding[] {
  const changes: { i: number; e: Effect; reason: string }[] = []
  list.forEach((e, i) => {
    const reason = changeReason(e)
    if (reason !== null) changes.push({ i, e, reason })
  })
  if (skillClass === 'safe')
    return changes.map(({ i, e, reason }) => ({
      severity: 'error' as const,
      message:
        e.kind === 'exec'
          ? `a safe skill started a command that ${reason}: ${effectLine(e)}`
          : `a safe skill changed the host: ${effectLine(e)}`,
      effect: i,
    }))
  if (skillClass === 'mutating' && changes.length === 0)
    return [
      {
        severity: 'info',
        message: `this run changed nothing a safe skill may not (${list.length} effect${list.length === 1 ? '' : 's'} seen): if that holds for every input, class "safe" would let every role and the LLM use it`,
        effect: null,
      },
    ]
  return []
}
