import {
  CLASS_CHOICES,
  DEFAULT_CATEGORY,
  DEFAULT_CLASS,
  DEFAULT_TEMPLATE,
  defaultTimeoutSeconds,
} from '../../core/init/options.js'
import { PARAM_TYPES } from '../../core/init/params.js'
import { defineSpec, flag } from '../spec.js'

export const initSpec = defineSpec({
  id: 'init',
  summary: 'Create a skill pack from a template: skill.json, the entry, a README and example args',
  description: `On a terminal, a wizard asks for the name (checked with the manager's loader rule as you type), description, class, category, timeout, template and env_allow. With --yes, --no-input, or when stdin is not a terminal, nothing is asked: flags and defaults fill everything, and a missing NAME or --description is a usage error.

The pack goes into DIR (default: NAME with _ turned into -): skill.json (the schema describes every param, class explicit), the entry (executable), README.md, examples/args.json (args that satisfy the schema) and tests/cases.json (its own cases, for ongrid-skill test).

The skill's params: --param NAME:TYPE[:DESCRIPTION] for each (NAME an identifier, [A-Za-z_][A-Za-z0-9_]*; TYPE string, integer, number, boolean, array or object; the description may hold colons), --required NAME for those the caller must pass; the wizard asks for them when no --param is given. The schema, the args, the cases and a sample entry (it checks the args and answers with them; do the skill's work where it says so) are built from them. With no param, the sample is a TCP port checker. Templates: bash, python (default), node and go (built by build.sh when go is on PATH); --template PATH takes your own template dir (template.json + files/, like the built-in ones).

Nothing is lost: a non-empty DIR is refused unless --force, which only adds the files DIR lacks. Files are written to a temp dir beside DIR and moved into place, so an interrupted init leaves nothing half written.

A shell entry is checked by ShellCheck (when installed) before init ends, and its result kept where lint keeps it: the pack's first lint does not wait for ShellCheck.`,
  examples: [
    ['Ask for everything, with defaults', '<%= config.bin %> <%= command.id %>'],
    [
      'No questions: a Python skill in ./check-port',
      '<%= config.bin %> <%= command.id %> check_port --no-input --description "Check whether a TCP port on a host accepts connections."',
    ],
    [
      'A Node skill for the params it takes: path (required) and depth',
      "<%= config.bin %> <%= command.id %> list_files -y -d \"List the files under a path, with their sizes.\" -t node --param 'path:string:Directory to list, absolute' --param 'depth:integer:How deep to go' --required path",
    ],
    [
      'A Go skill that needs a human to run it, with a 2-minute timeout, in skills/restart-nginx',
      '<%= config.bin %> <%= command.id %> restart_nginx -y -d "Restart nginx on the manager host." --template go --class mutating --timeout 2m --dir skills/restart-nginx',
    ],
    [
      'Start from your team’s own template dir',
      '<%= config.bin %> <%= command.id %> disk_report -y -d "Report disk usage." --template ./skill-templates/ops',
    ],
    [
      'Add the files an existing pack lacks (existing files are kept as they are)',
      '<%= config.bin %> <%= command.id %> check_port -y -d "Check whether a TCP port on a host accepts connections." --force',
    ],
    ['The built-in templates', '<%= config.bin %> <%= command.id %> --list-templates'],
  ],
  args: {
    name: { description: 'skill name, lower_snake [a-z0-9_] as the manager’s loader requires' },
  },
  flags: {
    description: flag.string({
      char: 'd',
      description: 'what the skill does and when to use it (the LLM reads it); required without the wizard',
    }),
    class: flag.string({
      description: `who may call it: ${CLASS_CHOICES.map((c) => `${c.value}: ${c.note.split(':')[0]}`).join('; ')} (default ${DEFAULT_CLASS})`,
      options: CLASS_CHOICES.map((c) => c.value),
    }),
    category: flag.string({ description: `category shown in skill lists (default ${DEFAULT_CATEGORY})` }),
    timeout: flag.string({
      description: `timeout_seconds, as a Go duration (90s, 2m) or a number of seconds: how long before the manager kills the entry, whole seconds (default ${defaultTimeoutSeconds('safe')} for safe skills, the LLM's per-call deadline; ${defaultTimeoutSeconds('mutating')} otherwise)`,
    }),
    'env-allow': flag.string({
      description:
        'the environment variables the manager passes, comma-separated (default: what the template needs, e.g. PATH for python and node; "" for none)',
    }),
    template: flag.string({
      char: 't',
      description: `built-in template (see --list-templates) or a template dir (default ${DEFAULT_TEMPLATE})`,
    }),
    param: flag.string({
      char: 'p',
      multiple: true,
      multipleNonGreedy: true,
      description: `a param of the skill, NAME:TYPE[:DESCRIPTION] (repeat it for each; TYPE: ${PARAM_TYPES.join(', ')}): the schema, the sample entry, examples/args.json and tests/cases.json are built from them (default: the template's example, a TCP port checker)`,
    }),
    required: flag.string({
      multiple: true,
      multipleNonGreedy: true,
      description: 'a --param the caller must pass (repeat it, or NAME,NAME)',
    }),
    dir: flag.string({ description: 'where to create the pack (default: NAME with _ turned into -)' }),
    force: flag.boolean({ description: 'write into a non-empty dir, adding only the files it lacks' }),
    yes: flag.boolean({ char: 'y', description: 'never prompt: flags and defaults fill everything' }),
    'no-input': flag.boolean({ description: 'never prompt (as when stdin is not a terminal)' }),
    'list-templates': flag.boolean({ description: 'list the built-in templates and exit' }),
    quiet: flag.boolean({
      char: 'q',
      description: 'print nothing on success (warnings and errors still go to stderr)',
    }),
  },
  exits: [
    { code: 0, kind: 'ok', help: 'created' },
    { code: 1, kind: 'failed', help: "created but the template's build step failed" },
    { code: 2, kind: 'usage', help: 'usage error (nothing written)' },
    {
      code: 130,
      kind: 'signal',
      help: "aborted (nothing written; 128 + the signal's number for other stop signals: 143 SIGTERM, 129 SIGHUP)",
    },
  ],
  schema: 'init.schema.json',
})
