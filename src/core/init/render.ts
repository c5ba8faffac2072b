import { lstatSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs'
import { extname, join } from 'node:path'
import { classNote, type InitAnswers } from './options.js'
import { paramsCases, paramsCodeValues, paramsSchema, paramsTable, sampleArgs } from './params.js'
import { type Template, TemplateError } from './templates.js'

/** One file of the pack to write: a path relative to the pack (with `/`), its bytes and mode. */
export interface PackFile {
  path: string
  content: Buffer
  mode: number
}

export interface RenderedPack {
  /** skill.json first, then the template's files in name order, then examples/args.json. */
  files: PackFile[]
  /** The entry as skill.json names it. */
  entry: string
}

export const MANIFEST = 'skill.json'
export const EXAMPLE_ARGS = 'examples/args.json'

/**
 * Placeholders (`{{name}}`). Values the name rule or a fixed list constrains may go anywhere,
 * code included; text the user typed (description, category) only into Markdown and, escaped,
 * JSON, so that no description can break a script.
 */
const CODE_KEYS = [
  'name',
  'entry',
  'class',
  'timeout_seconds',
  'template',
  // The params' names (identifiers, checked) and types (a fixed list); never their descriptions.
  'params_json',
  'names_json',
  'required_json',
  'params_bash',
  'names_bash',
  'required_bash',
  'params_names',
] as const
const TEXT_KEYS = ['description', 'category', 'class_note', 'env_allow', 'params_table'] as const
export const TEST_CASES = 'tests/cases.json'
const PLACEHOLDER = /\{\{([a-z_]+)\}\}/g

function values(t: Template, a: InitAnswers, entry: string): Record<string, string> {
  return {
    name: a.name,
    entry,
    class: a.class,
    timeout_seconds: String(a.timeoutSeconds),
    template: t.name,
    description: a.description,
    category: a.category,
    class_note: classNote(a.class),
    env_allow: a.envAllow.length === 0 ? 'none' : a.envAllow.map((n) => `\`${n}\``).join(', '),
    ...paramsCodeValues(a.params ?? []),
    params_table: paramsTable(a.params ?? []),
  }
}

/** Does the pack get a sample entry for the given params (rather than the template's example)? */
function withParams(t: Template, a: InitAnswers): boolean {
  const params = a.params ?? []
  if (params.length === 0) return false
  if (!t.paramsDir) {
    throw new TemplateError(
      `template ${t.name} has no params/ dir: it cannot take params (the built-in templates can; or give none)`,
    )
  }
  return true
}

/** Replaces placeholders in `text` as the file's kind allows; unknown `{{…}}` stay as they are. */
export function renderText(text: string, file: string, vals: Record<string, string>): string {
  const ext = extname(file).toLowerCase()
  const markdown = ext === '.md' || ext === '.markdown'
  const json = ext === '.json'
  return text.replace(PLACEHOLDER, (whole, key: string) => {
    if (!(key in vals)) return whole
    if ((TEXT_KEYS as readonly string[]).includes(key) && !markdown && !json) {
      throw new TemplateError(
        `${file} uses {{${key}}}: text the user types goes only into Markdown and JSON files, never into code`,
      )
    }
    return json ? JSON.stringify(vals[key]).slice(1, -1) : vals[key]
  })
}

/** Placeholders in a file's path: only the constrained values (the name, …). */
function renderPath(path: string, vals: Record<string, string>): string {
  return path.replace(PLACEHOLDER, (whole, key: string) =>
    (CODE_KEYS as readonly string[]).includes(key) ? vals[key] : whole,
  )
}

const SCALAR = String.raw`(?:"(?:[^"\\]|\\.)*"|[-\w.+]+)`
const SCALAR_ARRAY = new RegExp(String.raw`\[\n\s+(${SCALAR}(?:,\n\s+${SCALAR})*)\n\s*\]`, 'g')

/**
 * JSON.stringify with a 2-space indent, and arrays of plain values on one line, as people
 * write them (`"required": ["host", "port"]`). JSON.stringify never puts a raw newline inside
 * a string, so `,\n` only ever separates items.
 */
export function formatJson(value: unknown): string {
  const text = JSON.stringify(value, null, 2).replace(SCALAR_ARRAY, (_m, items: string) => {
    return `[${items.split(/,\n\s+/).join(', ')}]`
  })
  return `${text}\n`
}

/** skill.json, written with JSON.stringify: valid whatever the description holds. */
export function manifestText(t: Template, a: InitAnswers, entry: string): string {
  const manifest = {
    name: a.name,
    description: a.description,
    entry,
    class: a.class,
    category: a.category,
    timeout_seconds: a.timeoutSeconds,
    env_allow: a.envAllow,
    schema: withParams(t, a) ? paramsSchema(a.params ?? []) : t.schema,
  }
  return formatJson(manifest)
}

/** Everything the pack holds, rendered in memory; nothing is written. */
export function renderPack(t: Template, a: InitAnswers): RenderedPack {
  const vals = values(t, a, '')
  const entry = renderPath(t.entry, vals)
  vals.entry = entry
  const params = withParams(t, a) ? (a.params ?? []) : null
  const files: PackFile[] = [{ path: MANIFEST, content: Buffer.from(manifestText(t, a, entry)), mode: 0o644 }]
  // With params, params/ replaces files/ file by file, and init writes the test cases itself.
  const sources = new Map<string, string>()
  for (const rel of walk(join(t.dir, 'files'), '', t)) sources.set(rel, join(t.dir, 'files', rel))
  if (params && t.paramsDir) {
    sources.delete(TEST_CASES)
    for (const rel of walk(t.paramsDir, '', t)) sources.set(rel, join(t.paramsDir, rel))
  }
  for (const rel of [...sources.keys()].sort()) {
    const path = dotGitignore(renderPath(rel, vals))
    const own = params ? [MANIFEST, EXAMPLE_ARGS, TEST_CASES] : [MANIFEST, EXAMPLE_ARGS]
    if (own.includes(path)) {
      throw new TemplateError(
        `template ${t.name}: ${sources.get(rel)?.startsWith(t.paramsDir ?? '\0') ? 'params' : 'files'}/${rel}: init writes ${path} itself (from template.json${params ? ' and the params' : ''}); remove it`,
      )
    }
    const src = sources.get(rel)!
    const raw = readFileSync(src)
    // Binary files (a NUL byte) are copied as they are.
    const content = raw.includes(0) ? raw : Buffer.from(renderText(raw.toString('utf8'), path, vals))
    const executable = path === entry || (statSync(src).mode & 0o111) !== 0
    files.push({ path, content, mode: executable ? 0o755 : 0o644 })
  }
  if (params) {
    files.push({
      path: TEST_CASES,
      content: Buffer.from(formatJson(paramsCases(a.name, params))),
      mode: 0o644,
    })
  }
  files.push({
    path: EXAMPLE_ARGS,
    content: Buffer.from(formatJson(params ? sampleArgs(params) : t.exampleArgs)),
    mode: 0o644,
  })
  const has = (p: string) => files.some((f) => f.path === p)
  if (t.build && !has(t.build.script)) {
    throw new TemplateError(`template ${t.name}: the build script ${t.build.script} is not in files/`)
  }
  if (!has(entry) && !t.build) {
    throw new TemplateError(
      `template ${t.name}: the entry ${entry} is not in files/ and no build step makes it`,
    )
  }
  if (!has('README.md')) throw new TemplateError(`template ${t.name}: files/README.md is missing`)
  return { files, entry }
}

/**
 * A template's `gitignore` is written as `.gitignore`: npm leaves files named .gitignore out of
 * a package, so the shipped templates cannot hold one under its own name.
 */
function dotGitignore(path: string): string {
  return path.replace(/(^|\/)gitignore$/, '$1.gitignore')
}

/** What a template dir may hold that is never part of a pack. */
const JUNK = new Set(['.git', '.DS_Store', '__pycache__'])

/** The most a template file may hold: templates are small text files. */
export const MAX_TEMPLATE_FILE = 16 * 1024 * 1024

/**
 * Relative paths of the regular files under dir, depth first, names in order. Anything else is
 * refused, never followed: a symlink in a template's files/ (`-> /etc/shadow`) would otherwise
 * copy its target into the pack, and a FIFO or a device would block or never end.
 */
function walk(dir: string, prefix: string, t: Template): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir).sort()) {
    if (JUNK.has(name)) continue
    const rel = prefix === '' ? name : `${prefix}/${name}`
    const path = join(dir, name)
    const st = lstatSync(path)
    if (st.isDirectory()) out.push(...walk(path, rel, t))
    else if (st.isFile()) {
      if (st.size > MAX_TEMPLATE_FILE)
        throw new TemplateError(`template ${t.name}: files/${rel}: larger than 16 MiB`)
      out.push(rel)
    } else if (st.isSymbolicLink()) {
      throw new TemplateError(
        `template ${t.name}: files/${rel} is a symbolic link (to ${readlinkSync(path)}): a template holds regular files only, and init does not copy what a link points to`,
      )
    } else throw new TemplateError(`template ${t.name}: files/${rel}: not a regular file`)
  }
  return out
}
