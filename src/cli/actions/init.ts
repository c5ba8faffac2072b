import { join, resolve } from 'node:path'
import { reasonText } from '../../core/go/os/errors.js'
import { type InitResult, initPack, nextCommands } from '../../core/init/init.js'
import {
  categoryProblem,
  DEFAULT_CATEGORY,
  DEFAULT_CLASS,
  DEFAULT_TEMPLATE,
  defaultDir,
  defaultTimeoutSeconds,
  descriptionProblem,
  type InitAnswers,
  nameProblem,
  parseEnvAllow,
  parseTimeout,
} from '../../core/init/options.js'
import { parseParams } from '../../core/init/params.js'
import { isTemplatePath, listTemplates, loadTemplate, type Template } from '../../core/init/templates.js'
import { targetProblem } from '../../core/init/write.js'
import type { SkillClass } from '../../core/loader/build.js'
import { readFileBounded } from '../../core/read-bounded.js'
import { envelope } from '../../ui/envelope.js'
import { initJson, initSummary, templateList, templateListJson } from '../../ui/init/summary.js'
import { terminalLineText, terminalText } from '../../ui/terminal.js'
import { type ActionInput, EXIT, printJson, UserError } from '../errors.js'
import { argBytes, textPath } from '../os-bytes.js'
import { onStopSignals } from '../signals.js'

/** Exit codes of `init`, in the shared ones' terms (core/errors.ts). */
export const INIT_EXIT = {
  /** The pack was written, but the template's build step failed. */
  buildFailed: EXIT.findings,
  usage: EXIT.usage,
  interrupted: 130,
} as const

interface InitFlags {
  json?: boolean
  description?: string
  class?: string
  category?: string
  timeout?: string
  'env-allow'?: string
  template?: string
  param?: string[]
  required?: string[]
  dir?: string
  force?: boolean
  yes?: boolean
  'no-input'?: boolean
  'list-templates'?: boolean
  quiet?: boolean
}

/** init: a skill pack from a template, asked for by the wizard on a terminal or given by flags. */
// Refusals of a template or a target dir (TemplateError, TargetError) are usage errors: one
// line, nothing written.
export async function initAction({ args, flags: f }: ActionInput): Promise<number> {
  const name = args.name
  const flags = f as InitFlags
  const json = flags.json === true
  if (flags.dir !== undefined) textPath('--dir', flags.dir)
  if (flags['list-templates']) {
    const templates = listTemplates()
    if (json) printJson(envelope('init', EXIT.ok, { templates: templateListJson(templates) }))
    else process.stdout.write(templateList(templates))
    return EXIT.ok
  }

  const given = givenAnswers(name, flags)
  const interactive =
    !flags.yes && !flags['no-input'] && Boolean(process.stdin.isTTY) && Boolean(process.stderr.isTTY)
  let answers: InitAnswers
  let template: Template
  if (interactive) {
    const asked = await ask(given, flags.dir, flags.force === true)
    if (asked === null) {
      process.stderr.write('ongrid-skill: aborted: nothing written\n')
      return INIT_EXIT.interrupted
    }
    ;({ answers, template } = asked)
  } else {
    // --force over a pack: its own template, never another's files beside its own.
    const kept =
      flags.force === true && given.name !== undefined
        ? packTemplate(resolve(flags.dir ?? defaultDir(given.name)), given.name, given.template)
        : undefined
    template = loadTemplate(given.template ?? kept ?? DEFAULT_TEMPLATE)
    answers = complete(given, template)
  }

  const dir = resolve(flags.dir ?? defaultDir(answers.name))
  const controller = new AbortController()
  let signalCode: number = INIT_EXIT.interrupted
  const offSignals = onStopSignals((_signal, code) => {
    signalCode = code
    controller.abort()
  })
  let result: InitResult
  try {
    result = await initPack({
      answers,
      template,
      dir,
      force: flags.force === true,
      signal: controller.signal,
    })
  } catch (e) {
    if (controller.signal.aborted) {
      process.stderr.write('ongrid-skill: interrupted: nothing written\n')
      return signalCode
    }
    const err = e as NodeJS.ErrnoException
    if (typeof err.code === 'string' && typeof err.syscall === 'string') {
      const where = typeof err.path === 'string' ? `${err.syscall} ${err.path}: ` : ''
      throw new UserError(`cannot write the pack: ${where}${reasonText(err)}: nothing written`)
    }
    throw e
  } finally {
    offSignals()
  }

  if (result.entryPresent) await keepShellcheckResult(result.dir)
  const next = nextCommands(result, template)
  const errTty = process.stderr.isTTY === true
  for (const w of result.warnings) process.stderr.write(`warning: ${terminalLineText(w, errTty)}\n`)
  const failed = result.build?.status === 'failed' ? result.build : null
  if (failed) {
    const script = template.build?.script
    process.stderr.write(
      `error: ${script} failed${failed.code ? ` (exit ${failed.code})` : ''}; the pack is written without its entry: fix it and run ./${script}\n${terminalText(failed.output, errTty)}\n`,
    )
  }
  if (json) {
    const code = failed ? INIT_EXIT.buildFailed : EXIT.ok
    const why = failed
      ? `${template.build?.script} failed${failed.code ? ` (exit ${failed.code})` : ''}`
      : null
    printJson(envelope('init', code, initJson(result, answers.name, template, next), why))
  } else if (!flags.quiet)
    process.stdout.write(initSummary(result, template, next, process.cwd(), process.stdout.isTTY === true))
  return failed ? INIT_EXIT.buildFailed : EXIT.ok
}

/** The flags, checked: any bad value is a usage error (one line), wizard or not. */
function givenAnswers(name: string | undefined, flags: InitFlags): Partial<InitAnswers> {
  const given: Partial<InitAnswers> = {}
  if (name !== undefined) given.name = name
  if (flags.description !== undefined) {
    const p = descriptionProblem(flags.description)
    if (p) throw new UserError(p)
    given.description = flags.description
  }
  if (flags.class !== undefined) given.class = flags.class as SkillClass
  if (flags.category !== undefined) {
    const p = categoryProblem(flags.category)
    if (p) throw new UserError(`--category: ${p}`)
    given.category = flags.category.trim()
  }
  if (flags.timeout !== undefined) {
    const t = parseTimeout(flags.timeout)
    if (!t.ok) throw new UserError(`--timeout: ${t.problem}`)
    given.timeoutSeconds = t.value
  }
  if (flags['env-allow'] !== undefined) {
    const e = parseEnvAllow(flags['env-allow'])
    if (!e.ok) throw new UserError(`--env-allow: ${e.problem}`)
    given.envAllow = e.value
  }
  if (flags.template !== undefined) given.template = flags.template
  if (flags.param !== undefined || flags.required !== undefined) {
    const p = parseParams(flags.param ?? [], flags.required ?? [])
    if (!p.ok) throw new UserError(`--param: ${p.problem}`, undefined, p.hint)
    given.params = p.value
  }
  return given
}

/** Without the wizard: NAME and --description are required, the rest has defaults. */
function complete(given: Partial<InitAnswers>, template: Template): InitAnswers {
  if (given.name === undefined) {
    throw new UserError(
      'missing NAME: the skill name, lower_snake [a-z0-9_] (e.g. ongrid-skill init check_port)',
    )
  }
  const p = nameProblem(given.name)
  if (p) throw new UserError(p)
  if (given.description === undefined) {
    throw new UserError('description required: pass --description "what it does and when to use it"')
  }
  const c = given.class ?? DEFAULT_CLASS
  return {
    name: given.name,
    description: given.description,
    class: c,
    category: given.category ?? DEFAULT_CATEGORY,
    timeoutSeconds: given.timeoutSeconds ?? defaultTimeoutSeconds(c),
    template: given.template ?? DEFAULT_TEMPLATE,
    envAllow: given.envAllow ?? template.envAllow,
    params: given.params ?? [],
  }
}

/** The wizard (ink, loaded only here); null when aborted. */
async function ask(
  given: Partial<InitAnswers>,
  dirFlag: string | undefined,
  force: boolean,
): Promise<{ answers: InitAnswers; template: Template } | null> {
  // What --template takes → the template; a custom dir given as a flag is offered first.
  const builtins = listTemplates().map((t): [string, Template] => [t.name, t])
  const spec = given.template
  const custom: [string, Template][] =
    spec !== undefined && !builtins.some(([n]) => n === spec) ? [[spec, loadTemplate(spec)]] : []
  const templates = new Map([...custom, ...builtins])
  const dirProblems = new Map<string, string | null>()
  const dirFor = (name: string) => {
    const dir = dirFlag ?? defaultDir(name)
    if (!dirProblems.has(dir)) dirProblems.set(dir, force ? null : targetProblem(resolve(dir)))
    return { dir, problem: dirProblems.get(dir) ?? null }
  }
  const { runWizard } = await import('../../ui/init/run-wizard.js')
  const answers = await runWizard({
    templates: [...templates].map(([spec, t]) => ({
      name: spec,
      description: t.description,
      envAllow: t.envAllow,
    })),
    initial: given,
    dirFor,
  })
  return answers === null ? null : { answers, template: templates.get(answers.template)! }
}

/**
 * The built-in template a pack in `dir` was made with, by its skill.json's entry (`run.py`:
 * python), for `--force` over it; undefined when the dir holds no skill.json. A pack whose entry
 * is no template's, or another template than `--template` names, is refused: its files and the
 * template's would sit side by side.
 */
function packTemplate(dir: string, name: string, given: string | undefined): string | undefined {
  let entry: unknown
  try {
    const raw = readFileBounded(join(dir, 'skill.json'), 1024 * 1024, { regularOnly: true })
    entry = (JSON.parse(raw.toString('utf8')) as { entry?: unknown }).entry
  } catch {
    return undefined
  }
  if (typeof entry !== 'string' || entry === '') return undefined
  const match = listTemplates().find((t) => t.entry.replaceAll('{{name}}', name) === entry)?.name
  if (given !== undefined && (isTemplatePath(given) || given === match)) return match
  if (match === undefined)
    throw new UserError(
      `--force: ${dir} holds a pack whose entry ${JSON.stringify(entry)} is no built-in template's: give --template, or another --dir`,
    )
  if (given !== undefined)
    throw new UserError(
      `--force: ${dir} holds a ${match} pack (entry ${entry}): --template ${given} would put its files beside them`,
      undefined,
      `keep its template (--template ${match}, or none), or init into another --dir`,
    )
  return match
}

/**
 * ShellCheck's verdict on the new pack's entry, kept as `lint` keeps it (entry/shellcheck: this
 * user's cache, keyed by the script's bytes, its options and rc files, the program): the pack's
 * first `lint` finds it there instead of waiting for ShellCheck (about 150 ms for the bash
 * template's run.sh). The rule itself decides, through the lint engine: nothing runs for an entry
 * that is not a shell script, when ShellCheck is not installed, or when the pack's config turns
 * the rule off. What it finds is the lint's to report; nothing is said here.
 */
async function keepShellcheckResult(dir: string): Promise<void> {
  const [{ check }, { RULES_BY_ID }] = await Promise.all([
    import('../../core/lint/engine.js'),
    import('../../core/lint/registry.js'),
  ])
  const shellcheck = RULES_BY_ID.get('entry/shellcheck')
  if (shellcheck === undefined) return
  try {
    await check({ paths: [argBytes(dir)], rules: [shellcheck], set: 'all', useConfig: true })
  } catch {
    // Only a head start for lint: it checks the pack itself.
  }
}
