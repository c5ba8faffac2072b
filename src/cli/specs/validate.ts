import { defineSpec } from '../spec.js'
import {
  checkPaths,
  configFlags,
  formatFlag,
  managerVersionFlag,
  noDefaultIgnoreFlag,
  quietFlag,
  rootFlag,
} from './shared.js'

export const validateSpec = defineSpec({
  id: 'validate',
  summary: 'Check skill packs as the manager would load and run them',
  description: `A pack is valid when the ongrid manager would register it AND could run it. Every finding carries a rule id, a severity, the file and line:column; the messages are the manager's own words (the loader's parse and build errors, duplicate and builtin names, the executor's errors every run would hit, the LLM bridge's schema errors).

PATH is a pack dir, a skill.json, a SKILL.md (the manager's native skill format), or a dir walked as the loader walks an allow-list root (default: the current dir). A dir is walked whole: packs nested in a pack dir are judged too, as the manager's walk finds them, and the summary says how many manifests were found. All PATHs form one set, as one manager boot: a name registered by an earlier pack is a duplicate for later ones.

Left out by default, at any depth below a PATH: node_modules, .git, .hg and .svn dirs (installed tools and their example packs, VCS metadata), said in the summary ("left out: node_modules (2 dirs)"; summary.left_out in --json). --no-default-ignore walks them, as the manager would if they were deployed. A PATH named explicitly is always walked, even inside node_modules. The ignore globs of the nearest .ongrid-skill.yaml (or --config) leave packs out too; validate takes nothing else from it.

--format github and sarif give paths relative to the repository root (GITHUB_WORKSPACE, else the git top level, else the current dir), so a CI job with a working-directory still points at the right file. With --json every outcome, failures included, is one JSON document on stdout (schemas/output/validate.schema.json): ok, exit_code, command, schema_version, error ({message, kind} or null), then files and summary.

The allow-list root for the escape check is --root, or else the dir that holds the pack (as /etc/ongrid/skills holds /etc/ongrid/skills/<pack>/skill.json); for a walked dir, that dir. A pack dir (named, or holding the skill.json named) that also holds nested packs may be a root itself: it is taken as the root, the stricter reading. Whenever --root is not given, the summary names the root assumed ("root: /etc/ongrid/skills (assumed; --root to set it)"; summary.roots in --json).

Rules: docs/rules.md, or \`lint --list-rules\`.`,
  examples: [
    ['Validate the pack in the current dir', '<%= config.bin %> <%= command.id %>'],
    [
      'Validate every pack under an allow-list dir, as the manager loads them',
      '<%= config.bin %> <%= command.id %> /etc/ongrid/skills',
    ],
    [
      'One pack, checked against the root the manager is configured with',
      '<%= config.bin %> <%= command.id %> ./disk_usage --root /etc/ongrid/skills',
    ],
    [
      'Judge vendored packs too: walk node_modules and VCS dirs',
      '<%= config.bin %> <%= command.id %> --no-default-ignore',
    ],
    ['A native skill', '<%= config.bin %> <%= command.id %> skills/triage/SKILL.md'],
    [
      'As a v0.12.0 manager would judge them (its builtin keys)',
      '<%= config.bin %> <%= command.id %> skills --manager-version v0.12.0',
    ],
    [
      'Annotations in a GitHub Actions job (paths relative to the repository root)',
      '<%= config.bin %> <%= command.id %> skills --format github',
    ],
  ],
  strict: false,
  args: checkPaths,
  flags: {
    'manager-version': managerVersionFlag,
    root: rootFlag,
    format: formatFlag('output format (colours only on a terminal, and never with NO_COLOR)'),
    quiet: quietFlag('report errors only'),
    ...configFlags(': validate reads only its ignore globs'),
    'no-default-ignore': noDefaultIgnoreFlag,
  },
  exits: [
    { code: 0, kind: 'ok', help: 'no errors' },
    { code: 1, kind: 'findings', help: 'errors found' },
    { code: 2, kind: 'usage', help: 'usage or tool error (a missing PATH, nothing to check)' },
  ],
  schema: 'validate.schema.json',
})
