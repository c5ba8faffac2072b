import { type GoBytes, trimSpace } from '../go/gostring.js'

export const EXTERNAL_DIRS_ENV = 'ONGRID_SKILLS_EXTERNAL_DIRS'

/**
 * config.getEnvCSV for ONGRID_SKILLS_EXTERNAL_DIRS: unset or empty → none; else split
 * on ',' and ';' (never ':'), each part TrimSpace'd, empty parts dropped.
 */
export function splitExternalDirs(value: GoBytes | undefined): GoBytes[] {
  if (value === undefined || value === '') return []
  return value
    .split(/[,;]/)
    .map((p) => trimSpace(p) as GoBytes)
    .filter((p) => p !== '')
}
