import { resolve } from 'node:path'
import { Args, Flags } from '@oclif/core'
import { BaseCommand, UserError } from '../cli/base.js'
import { onStopSignals } from '../cli/signals.js'
import type { SkillClass } from '../core/build.js'
import { type InitResult, initPack, nextCommands } from '../core/init/init.js'
import {
  CLASS_CHOICES,
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
} from '../core/init/options.js'
import { PARAM_TYPES, parseParams } from '../core/init/params.js'
import { listTemplates, loadTemplate, type Template, TemplateError } from '../core/init/templates.js'
import { TargetError, targetProblem } from '../core/init/write.js'
import { initJson, initSummary, templateList, templateListJson } from '../ui/init/summary.js'

/** Exit codes of `init`, beyond the shared ones. */
export const INIT_EXIT = {
  /** The pack was written, but the template's build step failed. */
  buildFailed: 1,
  usage: 2,
  interrupted: 130,
} as const

export default class Init extends BaseCommand {
  static override summary =
    'Create a skill pack from a template: skill.json, the entry, a README and example args'

  static override description =
    `On a terminal, a wizard asks for the name (checked with the manager's loader rule as you type), description, class, category, timeout, template and env_allow. With --yes, --no-input, or when stdin is not a terminal, nothing is asked: flags and defaults fill everything, and a missing NAME or --description is a usage error.

The pack goes into DIR (default: NAME with _ turned into -): skill.json (the schema describes every param, class explicit), the entry (executable), README.md, examples/args.json (args that satisfy the schema) and tests/cases.json (its own cases, for ongrid-skill test).

The skill's params: --param NAME:TYPE[:DESCRIPTION] for each (NAME an identifier, [A-Za-z_][A-Za-z0-9_]*; TYPE string, integer, number, boolean, array or object; the description may hold colons), --required NAME for those the caller must pass; the wizard asks for them when no --param is given. The schema, the args, the cases and a sample entry (it checks the args and answers with them; do the skill's work where it says so) are built from them. With no param, the sample is a TCP port checker. Templates: bash, python (default), node and go (built by build.sh when go is on PATH); --template PATH takes your own template dir (template.json + files/, like the built-in ones).

Nothing is lost: a non-empty DIR is refused unless --force, which only adds the files DIR lacks. Files are written to a temp dir beside DIR and moved into place, so an interrupted init leaves nothing half written.

Exit codes: 0 created, 1 created but the template's build step failed, 2 usage error (nothing written), 130 aborted (nothing written; 128 + the signal's number for other stop signals: 143 SIGTERM, 129 SIGHUP).`

  static override examples = [
    { description: 'Ask for everything, with defaults', command: '<%= config.bin %> <%= command.id %>' },
    {
      description: 'No questions: a Python skill in ./check-port',
      command:
        '<%= config.bin %> <%= command.id %> check_port --no-input --description "Check whether a TCP port on a host accepts connections."',
    },
    {
      description: 'A Node skill for the params it takes: path (required) and depth',
      command:
        "<%= config.bin %> <%= command.id %> list_files -y -d \"List the files under a path, with their sizes.\" -t node --param 'path:string:Directory to list, absolute' --param 'depth:integer:How deep to go' --required path",
    },
    {
      description:
        'A Go skill that needs a human to run it, with a 2-minute timeout, in skills/restart-nginx',
      command:
        '<%= config.bin %> <%= command.id %> restart_nginx -y -d "Restart nginx on the manager host." --template go --class mutating --timeout 2m --dir skills/restart-nginx',
    },
    {
      description: 'Start from your team’s own template dir',
      command:
        '<%= config.bin %> <%= command.id %> disk_report -y -d "Report disk usage." --template ./skill-templates/ops',
    },
    {
      description: 'Add the files an existing pack lacks (existing files are kept as they are)',
      command:
        '<%= config.bin %> <%= command.id %> check_port -y -d "Check whether a TCP port on a host accepts connections." --force',
    },
    {
      description: 'The built-in templates',
      command: '<%= config.bin %> <%= command.id %> --list-templates',
    },
  ]

  static override enableJsonFlag = true

  static override args = {
    name: Args.string({
      ignoreStdin: true,
      description: 'skill name, lower_snake [a-z0-9_] as the manager’s loader requires',
    }),
  }

  static override flags = {
    description: Flags.string({
      char: 'd',
      description: 'what the skill does and when to use it (the LLM reads it); required without the wizard',
    }),
    class: Flags.string({
      description: `who may call it: ${CLASS_CHOICES.map((c) => `${c.value}: ${c.note.split(':')[0]}`).join('; ')} (default ${DEFAULT_CLASS})`,
      options: CLASS_CHOICES.map((c) => c.value),
    }),
    category: Flags.string({ description: `category shown in skill lists (default ${DEFAULT_CATEGORY})` }),
    timeout: Flags.string({
      description: `timeout_seconds, as a Go duration (90s, 2m) or a number of seconds: how long before the manager kills the entry, whole seconds (default ${defaultTimeoutSeconds('safe')} for safe skills, the LLM's per-call deadline; ${defaultTimeoutSeconds('mutating')} otherwise)`,
    }),
    'env-allow': Flags.string({
      description:
        'the environment variables the manager passes, comma-separated (default: what the template needs, e.g. PATH for python and node; "" for none)',
    }),
    template: Flags.string({
      char: 't',
      description: `built-in template (see --list-templates) or a template dir (default ${DEFAULT_TEMPLATE})`,
    }),
    param: Flags.string({
      char: 'p',
      multiple: true,
      description: `a param of the skill, NAME:TYPE[:DESCRIPTION] (repeat it for each; TYPE: ${PARAM_TYPES.join(', ')}): the schema, the sample entry, examples/args.json and tests/cases.json are built from them (default: the template's example, a TCP port checker)`,
    }),
    required: Flags.string({
      multiple: true,
      description: 'a --param the caller must pass (repeat it, or NAME,NAME)',
    }),
    dir: Flags.string({ description: 'where to create the pack (default: NAME with _ turned into -)' }),
    force: Flags.boolean({ description: 'write into a non-empty dir, adding only the files it lacks' }),
    yes: Flags.boolean({ char: 'y', description: 'never prompt: flags and defaults fill everything' }),
    'no-input': Flags.boolean({ description: 'never prompt (as when stdin is not a terminal)' }),
    'list-templates': Flags.boolean({ description: 'list the built-in templates and exit' }),
    quiet: Flags.boolean({
      char: 'q',
      description: 'print nothing on success (warnings and errors still go to stderr)',
    }),
  }

  async run(): Promise<unknown> {
    try {
      return await this.create()
    } catch (e) {
      // Refusals of a template or a target dir: usage errors, one line, nothing written.
      if (e instanceof TemplateError) throw new UserError(e.message, undefined, e.hint)
      if (e instanceof TargetError) throw new UserError(e.message)
      throw e
    }
  }

  private async create(): Promise<unknown> {
    const { args, flags } = await this.parse(Init)
    const json = this.jsonEnabled()
    if (flags['list-templates']) {
      const templates = listTemplates()
      if (json) return templateListJson(templates)
      process.stdout.write(templateList(templates))
      return undefined
    }

    const given = this.given(args.name, flags)
    const interactive =
      !flags.yes && !flags['no-input'] && Boolean(process.stdin.isTTY) && Boolean(process.stderr.isTTY)
    let answers: InitAnswers
    let template: Template
    if (interactive) {
      const asked = await this.ask(given, flags.dir, flags.force)
      if (asked === null) {
        process.stderr.write('ongrid-skill: aborted: nothing written\n')
        return this.exit(INIT_EXIT.interrupted)
      }
      ;({ answers, template } = asked)
    } else {
      template = loadTemplate(given.template ?? DEFAULT_TEMPLATE)
      answers = this.complete(given, template)
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
      result = await initPack({ answers, template, dir, force: flags.force, signal: controller.signal })
    } catch (e) {
      if (controller.signal.aborted) {
        process.stderr.write('ongrid-skill: interrupted: nothing written\n')
        return this.exit(signalCode)
      }
      const err = e as NodeJS.ErrnoException
      if (typeof err.code === 'string' && typeof err.syscall === 'string') {
        throw new UserError(`cannot write the pack: ${err.message}: nothing written`)
      }
      throw e
    } finally {
      offSignals()
    }

    const next = nextCommands(result, template)
    for (const w of result.warnings) process.stderr.write(`warning: ${w}\n`)
    const failed = result.build?.status === 'failed' ? result.build : null
    if (failed) {
      const script = template.build?.script
      process.stderr.write(
        `error: ${script} failed${failed.code ? ` (exit ${failed.code})` : ''}; the pack is written without its entry: fix it and run ./${script}\n${failed.output}\n`,
      )
    }
    if (json) this.logJson(initJson(result, answers.name, template, next))
    else if (!flags.quiet) process.stdout.write(initSummary(result, template, next))
    if (failed) return this.exit(INIT_EXIT.buildFailed)
    return undefined
  }

  /** The flags, checked: any bad value is a usage error (one line), wizard or not. */
  private given(
    name: string | undefined,
    flags: {
      description?: string
      class?: string
      category?: string
      timeout?: string
      'env-allow'?: string
      template?: string
      param?: string[]
      required?: string[]
    },
  ): Partial<InitAnswers> {
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
  private complete(given: Partial<InitAnswers>, template: Template): InitAnswers {
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
  private async ask(
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
    const { runWizard } = await import('../ui/init/run-wizard.js')
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
}
