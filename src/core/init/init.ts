import { realpathSync } from 'node:fs'
import { isAbsolute, join, relative } from 'node:path'
import { EXTERNAL_DIRS_ENV } from '../loader/dirs.js'
import { type BuildOutcome, runBuild } from './build-step.js'
import { descriptionNote, type InitAnswers, timeoutNote } from './options.js'
import { EXAMPLE_ARGS, MANIFEST, renderPack, TEST_CASES } from './render.js'
import type { BuildStep, Template } from './templates.js'
import { type InitFs, nodeFs, writePack } from './write.js'

export interface InitRequest {
  answers: InitAnswers
  template: Template
  /** The pack dir (absolute). */
  dir: string
  force?: boolean
  fs?: InitFs
  signal?: AbortSignal
  /** The build step runner (tests replace it). */
  build?: (step: BuildStep, dir: string, signal?: AbortSignal) => Promise<BuildOutcome>
}

export interface InitResult {
  /** The pack dir as written (symlinks resolved). */
  dir: string
  entry: string
  written: string[]
  kept: string[]
  /** Build outputs not added: the pack's sources differ from the template's (with force). */
  skipped: string[]
  /** The template's build step, when it has one. */
  build: BuildOutcome | null
  /** Is the entry in the pack now? (false when the build could not run) */
  entryPresent: boolean
  warnings: string[]
  /** Was the sample entry written for the skill's params (rather than the template's example)? */
  withParams?: boolean
}

/**
 * `ongrid-skill init`: renders the template in memory, stages the pack next to its dir,
 * runs the template's build step in the staged pack, then moves it into place
 * (see writePack). The answers must already be checked (options.ts).
 */
export async function initPack(req: InitRequest): Promise<InitResult> {
  const { answers, template } = req
  const pack = renderPack(template, answers)
  const dir = resolveExisting(req.dir)
  const fs = req.fs ?? nodeFs
  const step = template.build
  const build = req.build ?? runBuild
  const ran: { outcome: BuildOutcome | null } = { outcome: null }
  const written = await writePack(dir, pack.files, {
    force: req.force,
    fs,
    signal: req.signal,
    beforeCommit: step
      ? async (staged) => {
          ran.outcome = await build(step, staged, req.signal)
          if (ran.outcome.status === 'built' && !(await present(fs, join(staged, pack.entry)))) {
            const output = `${step.script} succeeded but did not make the entry ${pack.entry}`
            ran.outcome = { status: 'failed', code: 0, output }
          }
        }
      : undefined,
  })
  const warnings: string[] = []
  for (const p of answers.params ?? []) {
    if (p.description === '') {
      warnings.push(
        `param ${p.name} has no description: lint warns (schema/property-description); say in skill.json what the LLM should pass`,
      )
    }
  }
  const description = descriptionNote(answers.description)
  if (description) warnings.push(`description: ${description}`)
  const timeout = timeoutNote(answers.timeoutSeconds, answers.class)
  if (timeout) warnings.push(`timeout_seconds: ${timeout}`)
  const lacking = template.envAllow.filter((n) => !answers.envAllow.includes(n))
  if (lacking.length > 0) {
    warnings.push(
      `env_allow lacks ${lacking.join(', ')}, which the ${template.name} template lists: the manager passes only the names in env_allow (see the pack's README.md)`,
    )
  }
  const built = ran.outcome
  if (built?.status === 'missing-tool') {
    warnings.push(
      `${built.tool} is not on PATH: ${pack.entry} is not built yet, so the manager cannot load the pack; install ${built.tool} and run ./${step?.script} in the pack`,
    )
  }
  return {
    dir,
    entry: pack.entry,
    ...written,
    build: built,
    entryPresent: await present(fs, join(dir, pack.entry)),
    warnings,
    withParams: (answers.params ?? []).length > 0,
  }
}

async function present(fs: InitFs, path: string): Promise<boolean> {
  try {
    await fs.lstat(path)
    return true
  } catch {
    return false
  }
}

/** An existing target through a symlink is written where the link points. */
function resolveExisting(dir: string): string {
  try {
    return realpathSync(dir)
  } catch {
    return dir
  }
}

/** A word for the shell: as it is when plain, else in single quotes. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`
}

/** How to name the pack dir in commands: relative to cwd when inside it, else absolute. */
export function displayDir(dir: string, cwd = process.cwd()): string {
  const rel = relative(cwd, dir)
  if (rel === '') return '.'
  return rel.startsWith('..') || isAbsolute(rel) ? dir : rel
}

/**
 * The steps to take next: what to edit (and build), then validate, test (when the pack has its
 * cases), run and install. Each is a line for the shell; the edit names $EDITOR.
 */
export function nextCommands(r: InitResult, template: Template, cwd = process.cwd()): string[] {
  const d = displayDir(r.dir, cwd)
  const w = shellWord(d)
  const next: string[] = []
  if (!r.entryPresent && template.build) {
    next.push(`(cd ${w} && ./${template.build.script})`)
  }
  const source = template.source ?? r.entry
  const rebuild = template.build ? `, then (cd ${w} && ./${template.build.script})` : ''
  next.push(
    r.withParams
      ? `$EDITOR ${shellWord(`${d}/${source}`)}   # do the skill's work where the sample says so: it gets the args checked against the schema${rebuild}`
      : `$EDITOR ${shellWord(`${d}/${source}`)} ${shellWord(`${d}/${MANIFEST}`)}   # replace the sample (a TCP port checker) with the skill's work, and the schema with its params${rebuild}`,
    `ongrid-skill validate ${w}`,
  )
  if ([...r.written, ...r.kept].includes(TEST_CASES)) {
    next.push(`ongrid-skill test ${w}   # the cases in ${TEST_CASES}: keep them in step with the code`)
  }
  next.push(
    `ongrid-skill run ${w} --args-file ${shellWord(`${d}/${EXAMPLE_ARGS}`)}`,
    // `cp -r . dest/` would spill the files into dest/: name the dir itself.
    `sudo cp -r ${d === '.' ? shellWord(r.dir) : w} /etc/ongrid/skills/   # or any dir in ${EXTERNAL_DIRS_ENV}; then restart the manager`,
  )
  return next
}
