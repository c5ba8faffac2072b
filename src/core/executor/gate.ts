import type { SkillClass } from '../loader/build.js'

export const ROLES = ['admin', 'user', 'viewer', 'system'] as const

/**
 * The manager's REST class gate for POST /api/v1/skills/{key}/execute (skill service
 * `authorize`): safe is open to every role; mutating only to admin and user; dangerous is
 * always refused. Returns the manager's 403 error text, or null when the call may proceed.
 */
export function authorize(cls: SkillClass, role: string): string | null {
  switch (cls) {
    case 'safe':
      return null
    case 'mutating':
      if (role === 'admin' || role === 'user') return null
      if (role === 'viewer') return 'forbidden: viewer role cannot run mutating skills'
      return 'forbidden: mutating skills require admin or user role'
    case 'dangerous':
      return 'forbidden: dangerous skills require SOP signature (not implemented)'
  }
}

/** Only safe skills are bridged to the LLM (and only by the legacy agent kernel). */
export function llmCallable(cls: SkillClass): boolean {
  return cls === 'safe'
}
