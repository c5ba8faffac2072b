import { existsSync, lstatSync, readdirSync, statSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { EXIT, UserError } from '../errors.js'
import { fromText } from '../go/gostring.js'
import { jsonSyntaxText } from '../json-syntax.js'
import { packageRoot } from '../package-root.js'
import { NotRegularError, readFileBounded, TooLargeError } from '../read-bounded.js'
import { didYouMean, meanHint } from '../suggest.js'

/** A build step: a script of the template, run in the pack by `init` when its tools are on PATH. */
export interface BuildStep {
  /** Path of the script inside the pack, run with /bin/sh. */
  script: string
  /** Programs the script needs on PATH (e.g. `go`). */
  requires: string[]
}

/**
 * A template: `template.json` beside a `files/` dir. `files/` is copied into the pack with
 * placeholders replaced; `init` writes `skill.json` and `examples/args.json` itself from
 * template.json (so they are always valid JSON).
 */
export interface Template {
  /** The built-in template's name, or the custom dir's base name. */
  name: string
  /** Absolute path of the template dir. */
  dir: string
  builtin: boolean
  /** One line, for `--list-templates` and the wizard. */
  description: string
  /** The entry, relative to the pack; may hold `{{name}}`. */
  entry: string
  /** What the entry needs passed (e.g. PATH for `#!/usr/bin/env python3`). */
  envAllow: string[]
  build: BuildStep | null
  /** The params schema written into skill.json. */
  schema: Record<string, unknown>
  /** Args that satisfy the schema, written to examples/args.json. */
  exampleArgs: Record<string, unknown>
  /**
   * The template's `params/` dir, when it has one: the files that replace those of files/ when
   * the skill's params are given (a sample entry for any params instead of the example's).
   */
  paramsDir?: string
  /** The file the author edits to do the skill's work, when not the entry (e.g. main.go). */
  source?: string
}

/** A template that cannot be used; the message says what to fix. */
export class TemplateError extends UserError {
  /** `hint`: one line that says what to do (`did you mean "python"?`). */
  constructor(message: string, hint?: string) {
    super(message, EXIT.usage, hint)
  }
}

/** The dir of the built-in templates, shipped in the package (`files` includes templates/). */
export function builtinTemplatesDir(): string {
  return join(packageRoot(), 'templates')
}

export function builtinTemplateNames(dir = builtinTemplatesDir()): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'template.json')))
    .map((d) => d.name)
    .sort()
}

export function listTemplates(dir = builtinTemplatesDir()): Template[] {
  return builtinTemplateNames(dir).map((name) => readTemplate(join(dir, name), name, true))
}

/** Does `--template` name a dir rather than a built-in template? */
export function isTemplatePath(spec: string): boolean {
  return spec.includes('/') || spec.startsWith('.') || spec.startsWith('~')
}

/** A built-in template by name, or a custom template dir by path (relative to cwd). */
export function loadTemplate(spec: string, cwd = process.cwd(), dir = builtinTemplatesDir()): Template {
  if (isTemplatePath(spec)) {
    const path = resolve(cwd, spec)
    let isDir = false
    try {
      isDir = statSync(path).isDirectory()
    } catch {}
    if (!isDir) throw new TemplateError(`template ${spec}: not a directory`)
    return readTemplate(path, basename(path), false)
  }
  const names = builtinTemplateNames(dir)
  if (!names.includes(spec)) {
    throw new TemplateError(
      `unknown template ${JSON.stringify(spec)}: the built-in ones are ${names.join(', ')} (or pass a template dir, e.g. ./my-template)`,
      meanHint(didYouMean(spec, names)),
    )
  }
  return readTemplate(join(dir, spec), spec, true)
}

function readTemplate(dir: string, name: string, builtin: boolean): Template {
  const where = builtin ? `template ${name}` : `template ${dir}`
  // template.json's format is documented by a JSON Schema the package ships.
  const bad = (what: string) =>
    new TemplateError(
      `${where}: ${what}`,
      what.startsWith('template.json')
        ? 'template.json is described by schemas/template.schema.json'
        : undefined,
    )
  let raw: string
  try {
    raw = readFileBounded(join(dir, 'template.json'), 1024 * 1024, { regularOnly: true }).toString('utf8')
  } catch (e) {
    if (e instanceof TooLargeError || e instanceof NotRegularError)
      throw bad(`template.json: ${(e as Error).message}`)
    throw bad('no template.json (a template dir holds template.json and a files/ dir; see --list-templates)')
  }
  let doc: Record<string, unknown>
  try {
    doc = JSON.parse(raw)
  } catch {
    // Go's words and a position, never V8's excerpt of the content.
    throw bad(`template.json: not JSON: ${jsonSyntaxText(fromText(raw))}`)
  }
  if (!isObject(doc)) throw bad('template.json must hold an object')
  let filesDir = false
  let filesLink = false
  try {
    const st = lstatSync(join(dir, 'files'))
    filesDir = st.isDirectory()
    filesLink = st.isSymbolicLink()
  } catch {}
  // A link is not followed: what it points to is not the template's to copy.
  if (filesLink) throw bad('files/ is a symbolic link: a template holds its files/ dir itself')
  if (!filesDir) throw bad('no files/ dir (it holds what is copied into the pack)')
  let paramsDir: string | undefined
  try {
    const st = lstatSync(join(dir, 'params'))
    if (st.isSymbolicLink()) throw bad('params/ is a symbolic link: a template holds its params/ dir itself')
    if (st.isDirectory()) paramsDir = join(dir, 'params')
  } catch (e) {
    if (e instanceof TemplateError) throw e
  }

  const str = (key: string) => {
    const v = doc[key]
    if (typeof v !== 'string' || v.trim() === '')
      throw bad(`template.json: "${key}" must be a non-empty string`)
    return v
  }
  const strings = (v: unknown, key: string) => {
    if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) {
      throw bad(`template.json: "${key}" must be an array of strings`)
    }
    return v as string[]
  }
  const entry = str('entry')
  if (!isInsidePath(entry))
    throw bad(`template.json: "entry" must be a relative path inside the pack, not ${entry}`)
  let build: BuildStep | null = null
  if (doc.build !== undefined && doc.build !== null) {
    if (!isObject(doc.build) || typeof doc.build.script !== 'string' || !isInsidePath(doc.build.script)) {
      throw bad(
        'template.json: "build" must be {"script": "<path in the pack>", "requires": ["<program>", …]}',
      )
    }
    build = { script: doc.build.script, requires: strings(doc.build.requires ?? [], 'build.requires') }
  }
  let source: string | undefined
  if (doc.source !== undefined) {
    source = str('source')
    if (!isInsidePath(source)) throw bad(`template.json: "source" must be a relative path inside the pack`)
  }
  if (!isObject(doc.schema)) throw bad('template.json: "schema" must be a JSON Schema object')
  if (!isObject(doc.example_args)) throw bad('template.json: "example_args" must be an object of args')
  return {
    name,
    dir,
    builtin,
    description: str('description'),
    entry,
    envAllow: strings(doc.env_allow ?? [], 'env_allow'),
    build,
    schema: doc.schema,
    exampleArgs: doc.example_args,
    ...(paramsDir ? { paramsDir } : {}),
    ...(source ? { source } : {}),
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

/** A relative path that stays inside its dir (no absolute path, no `..` part). */
export function isInsidePath(p: string): boolean {
  return p !== '' && !p.startsWith('/') && !p.split('/').some((part) => part === '..' || part === '')
}
