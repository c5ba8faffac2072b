import { BASELINE_NAME, SEVERITIES } from '../flag-sources.js'
import { defineSpec, flag } from '../spec.js'
import {
  checkPaths,
  configFlags,
  formatFlag,
  managerVersionFlag,
  noDefaultIgnoreFlag,
  quietFlag,
  rootFlag,
} from './shared.js'

export const lintSpec = defineSpec({
  id: 'lint',
  summary: 'Validate skill packs and check them against best practices',
  description: `Everything \`validate\` checks, plus best-practice rules: class left unset, skills the LLM never sees, descriptions too short or too long, schema properties without descriptions, required names not declared, no additionalProperties decision, timeouts unset or over 5 minutes, near-miss and case-folded keys, duplicate keys, a BOM, names of the manager's built-in agent tools, and SKILL.md tool classes and activation.

PATHs are walked as validate walks them: node_modules, .git, .hg and .svn dirs below a PATH are left out unless --no-default-ignore, and the summary says what was left out and which allow-list root was assumed (see validate --help).

Severities come from the rules' defaults, then the nearest .ongrid-skill.yaml (or .yml) above each file, or the one --config names (\`rules: {ID: off|info|warn|error}\`, \`warning\` being \`warn\`; \`ignore: [globs relative to that file]\`; a JSON Schema for editors ships in schemas/), then --rule. Findings at or above --fail-severity (default error) make the exit code 1; --max-warnings N also fails on more than N warnings.

--show-tool prints, instead of findings, the function definition the manager's LLM bridge would send for each pack (name, description with its "Returns:" suffix, and the parameters after the bridge's transformation): pretty, or with --json one compact line per pack, byte for byte as the manager marshals it. Packs the LLM would not get are listed on stderr, with why (exit 1).

--fix applies the fixes rules are certain of (a BOM, key case, an explicit class "safe", the entry's execute bit, a #! line ending in CR, env_allow white space, timeout_seconds as a digit string, SKILL.md names the manager normalises, a case file's key one slip from a known one): minimal edits of each file's bytes, written atomically (owner, mode and hard links kept); a file changed during the run is left alone, said on stderr. It repeats until no fix is left, then reports the findings left (their exit code) and re-runs validate on the fixed files. --fix-dry-run prints the same fixes (one pass) as a unified diff and writes nothing; it exits 1 while a fix is pending. --fix-type picks the rule categories to fix. Fixes that would change what the manager does (renaming a near-miss key) are suggestions: in --format json, never applied.

A baseline (--baseline FILE, else .ongrid-skill-baseline.json in the current dir or above, up to the repository root) holds findings a repository has accepted: they are reported as baselined and neither fail the run nor count as warnings; new findings do, and baselined ones no longer found are reported as fixed. --update-baseline writes the current findings to it, --prune-baseline drops the fixed ones. Findings of manager rules are never baselined, and validate ignores the baseline.

--format github and sarif give paths relative to the repository root (GITHUB_WORKSPACE, else the git top level, else the current dir). With --json every outcome, failures included, is one JSON document on stdout.`,
  examples: [
    ['Lint the packs under the current dir', '<%= config.bin %> <%= command.id %>'],
    [
      'CI: fail on warnings too, SARIF for code scanning',
      '<%= config.bin %> <%= command.id %> skills --fail-severity warn --format sarif > lint.sarif',
    ],
    [
      'Turn a rule off for this run',
      '<%= config.bin %> <%= command.id %> skills --rule practice/class-unset=off',
    ],
    ['Fix what is certain, then see what is left', '<%= config.bin %> <%= command.id %> skills --fix'],
    [
      'Review the fixes as a diff first (nothing written)',
      '<%= config.bin %> <%= command.id %> skills --fix-dry-run --fix-type best-practice',
    ],
    [
      `Accept today's findings: record them in ${BASELINE_NAME} (commit it); later runs fail only on new ones`,
      '<%= config.bin %> <%= command.id %> skills --update-baseline',
    ],
    ['Every rule with its id and default severity', '<%= config.bin %> <%= command.id %> --list-rules'],
    [
      'Turn a whole category of rules off',
      "<%= config.bin %> <%= command.id %> skills --rule 'practice/*=off'",
    ],
    ['How many findings each rule has', '<%= config.bin %> <%= command.id %> skills --statistics'],
    [
      'Check again only the packs that changed since the last run',
      '<%= config.bin %> <%= command.id %> skills --cache',
    ],
    [
      'An editor’s unsaved text, judged where it will be saved',
      '<%= config.bin %> <%= command.id %> --stdin --stdin-filename skills/disk_usage/skill.json < buffer.json',
    ],
    [
      'The settings for one file, and where each came from',
      '<%= config.bin %> <%= command.id %> --print-config skills/disk_usage/skill.json',
    ],
    [
      'What the LLM receives for a pack',
      '<%= config.bin %> <%= command.id %> examples/skills/disk_usage --show-tool',
    ],
  ],
  strict: false,
  args: checkPaths,
  flags: {
    'manager-version': managerVersionFlag,
    root: rootFlag,
    format: formatFlag(
      'output format (--json is --format json; colours only on a terminal, and never with NO_COLOR)',
    ),
    'fail-severity': flag.option({
      description: 'lowest severity that makes the exit code 1',
      options: SEVERITIES,
      default: 'error' as const,
    }),
    'max-warnings': flag.string({ description: 'also exit 1 when there are more than N warnings' }),
    quiet: quietFlag('report only findings at or above the fail severity'),
    rule: flag.string({
      description:
        'set rules’ severity for this run: ID=off|info|warn|error, ID a rule id, a prefix (practice) or a glob (practice/*); repeatable, a later one wins',
      multiple: true,
      multipleNonGreedy: true,
    }),
    ...configFlags(''),
    'no-default-ignore': noDefaultIgnoreFlag,
    baseline: flag.string({
      description: `findings recorded in this file are reported as baselined and do not fail the run (default: ${BASELINE_NAME} in the current dir or above, up to the repository root)`,
    }),
    'update-baseline': flag.boolean({
      description:
        'write the current findings to the baseline (created at the repository root if there is none)',
    }),
    'prune-baseline': flag.boolean({
      description: 'drop the baseline entries no finding matches any more',
    }),
    'list-rules': flag.boolean({ description: 'list every rule (id, default severity, category) and exit' }),
    'print-config': flag.string({
      description:
        'print the settings that apply to this file (each rule’s severity and where it came from: default, config, --rule) and exit',
    }),
    stdin: flag.boolean({
      description: 'lint the text on stdin, as the file --stdin-filename names (default: skill.json here)',
    }),
    'stdin-filename': flag.string({
      description: 'with --stdin: the path the text is judged at (its kind, its config, its pack)',
    }),
    'exit-zero': flag.boolean({
      description: 'exit 0 even when findings fail the run (a usage or tool error is still 2)',
    }),
    statistics: flag.boolean({
      description:
        'count the findings per rule (stylish: instead of each finding; json: a statistics list beside them)',
    }),
    cache: flag.boolean({
      description:
        'keep each pack’s findings in this user’s cache and reuse them while nothing they depend on changes (not with --fix, --fix-dry-run or --stdin, which check afresh)',
    }),
    'cache-location': flag.string({
      description:
        'with --cache: the dir to keep them in, a dir of this user’s own (default: $XDG_CACHE_HOME/ongrid-skill/lint)',
    }),
    'show-tool': flag.boolean({
      description: 'print the function definition the LLM would receive, instead of findings',
    }),
    fix: flag.boolean({ description: 'apply the certain fixes to the files, then report what is left' }),
    'fix-dry-run': flag.boolean({
      description: 'print the certain fixes as a unified diff (git apply takes it); write nothing',
    }),
    'fix-suggestions': flag.boolean({
      description:
        'with --fix or --fix-dry-run: also apply each finding’s first suggestion (these change what the manager does; each is listed on stderr before it is written)',
    }),
    'fix-type': flag.string({
      description:
        'fix only rules of these categories: manager, best-practice, tests (repeatable, or comma-separated)',
      multiple: true,
      multipleNonGreedy: true,
    }),
  },
  exits: [
    { code: 0, kind: 'ok', help: 'clean at the fail severity' },
    { code: 1, kind: 'findings', help: 'findings (or a pack not offered, with --show-tool)' },
    { code: 2, kind: 'usage', help: 'usage or tool error' },
  ],
  schema: 'lint.schema.json',
})
