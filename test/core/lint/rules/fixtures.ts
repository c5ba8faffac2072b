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
