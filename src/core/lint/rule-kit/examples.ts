/** Building blocks of the rules' example trees (docs/rules.md shows them; the tests replay them). */
import type { ExampleFile } from '../types.js'

type Files = Record<string, ExampleFile>

/** skill.json text: the fields, two-space indented. */
export function skillJson(fields: Record<string, unknown>): string {
  return `${JSON.stringify(fields, null, 2)}\n`
}

/**
 * A skill.json (disk_free) whose schema holds JSON text JSON.stringify cannot write (1e400, a deep
 * nesting on one line): `raw` where the schema has the string "@".
 */
export function skillJsonRaw(schema: Record<string, unknown>, raw: string): string {
  return skillJson({
    name: 'disk_free',
    description: 'Reports free space.',
    entry: 'run.sh',
    schema,
  }).replace('"@"', raw)
}

/** A script the executor can start. */
export const RUN_SH: ExampleFile = { exec: '#!/bin/sh\necho \'{"free": 1024}\'\n' }

const BASE = {
  name: 'disk_free',
  description: 'Reports the free space of a filesystem, in bytes.',
  entry: 'run.sh',
}

/**
 * A pack dir `skills/<dir>`: skill.json with a name, a description and an entry, `fields` over
 * them (undefined drops one), and run.sh. `files` (relative to the pack dir) adds or replaces files.
 */
export function pack(fields: Record<string, unknown> = {}, files: Files = {}, dir = 'disk_free'): Files {
  const m: Record<string, unknown> = { ...BASE }
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) delete m[k]
    else m[k] = v
  }
  const out: Files = { [`skills/${dir}/skill.json`]: skillJson(m), [`skills/${dir}/run.sh`]: RUN_SH }
  for (const [k, v] of Object.entries(files)) out[`skills/${dir}/${k}`] = v
  return out
}

/** A pack whose skill.json is the text given (for what JSON.stringify cannot write). */
export function packText(text: string, files: Files = {}): Files {
  return pack({}, { 'skill.json': text, ...files })
}

/** A SKILL.md at skills/disk_free/SKILL.md. */
export function skillMd(file: ExampleFile): Files {
  return { 'skills/disk_free/SKILL.md': file }
}

/** A SKILL.md the manager loads without a word, and its text. */
export const SKILL_MD_TEXT =
  '---\nname: disk_free\ndescription: Reports the free space of a filesystem, in bytes.\n---\n# Disk free\n'
export const SKILL_MD = skillMd(SKILL_MD_TEXT)

/** A SKILL.md with these frontmatter lines after name and description. */
export function skillMdWith(lines: string): Files {
  return skillMd(`---\nname: disk_free\ndescription: Reports the free space of a filesystem.\n${lines}---\n`)
}

/** A case file (tests/*.json) that `test` can run. */
export const CASE_OK = '{\n  "name": "root",\n  "expect": {"ok": true}\n}\n'
