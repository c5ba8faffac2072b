/** Trees the rule tests share: a clean pack (lint finds nothing in it) and a clean SKILL.md. */
import { ECHO, manifest, type Node } from '../../../helpers/tree.js'

export const CLEAN = {
  name: 'clean',
  description: 'Reports the free space of a filesystem, in bytes.',
  entry: 'run.sh',
  class: 'safe',
  timeout_seconds: 10,
  env_allow: ['PATH'],
  schema: {
    type: 'object',
    properties: { path: { type: 'string', description: 'A path.', default: '/' } },
    additionalProperties: false,
  },
}

/** The clean manifest with fields overridden or removed (undefined), as JSON text on one line. */
export function pack(fields: Record<string, unknown> = {}): string {
  return manifest({ ...CLEAN, ...fields })
}

export const NATIVE_OK = '---\nname: disk_report\ndescription: Reports disks.\n---\n# Disk\n'

export const CLEAN_PACK: Record<string, Node> = { 'skills/a/skill.json': pack(), 'skills/a/run.sh': ECHO }
export const CLEAN_NATIVE: Record<string, Node> = { 'skills/n/SKILL.md': NATIVE_OK }

/** The clean pack with its entry named `name` and holding `text` (executable): the entry/ rules' trees. */
export function packWithEntry(name: string, text: string): Record<string, Node> {
  return { 'skills/a/skill.json': pack({ entry: name }), [`skills/a/${name}`]: { exec: text } }
}
/** Where packWithEntry puts an entry of each language. */
export const ENTRY_SH = 'skills/a/run.sh'
export const ENTRY_PY = 'skills/a/run.py'
export const ENTRY_JS = 'skills/a/run.js'

/** The column (1-based) of the nth occurrence of `needle` in pack(fields): one line, so the offset + 1. */
export function colOf(fields: Record<string, unknown>, needle: string, nth = 1): number {
  const text = pack(fields)
  let at = -1
  for (let i = 0; i < nth; i++) {
    at = text.indexOf(needle, at + 1)
    if (at === -1) throw new Error(`${needle} not found ${nth} times in ${text}`)
  }
  return at + 1
}
