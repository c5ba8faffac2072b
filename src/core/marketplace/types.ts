import type { GoString } from '../go/gostring.js'

/** chatruntime.LoadWarning: {path, code, reason} (byte strings). */
export interface LoadWarning {
  path: GoString
  code: string
  reason: GoString
  /** False when the reason is not the manager's exact text (YAML syntax errors, some ASN.1). */
  exact?: boolean
}

export type ContainerKind = 'openclaw' | 'claude' | 'bare_skills' | ''
