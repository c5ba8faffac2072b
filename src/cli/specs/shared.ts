import { LINT_FORMATS } from '../../ui/lint/format.js'
import { DEFAULT_MANAGER_VERSION, MANAGER_VERSION_ENV, SUPPORTED_MANAGER_VERSIONS } from '../flag-sources.js'
import { flag } from '../spec.js'

/**
 * The argument and flags `validate` and `lint` share (lint is validate's check with every rule),
 * and `test` and the marketplace checks with them: one
 * definition each, so the actions, typed by their specs (InputOf), read the same types.
 */

/** PATH...: what to check. */
export const checkPaths = {
  path: {
    description: 'pack dir, skill.json, SKILL.md, or a dir to walk; repeatable (default: .)',
  },
}

/** --root: the allow-list root of the escape check. */
export const rootFlag = flag.string({
  description:
    'allow-list root for the escape check (default: the dir holding the pack; PATH itself when it also holds nested packs)',
})

/** --no-default-ignore: walk node_modules and VCS dirs too (core/lint/targets.ts). */
export const noDefaultIgnoreFlag = flag.boolean({
  description: 'also walk node_modules, .git, .hg and .svn dirs below PATH (left out by default)',
})

/** --format: a findings format (ui/lint/format.ts); the help line is the command's. */
export const formatFlag = (description: string) =>
  flag.option({ description, options: LINT_FORMATS, default: 'stylish' })

/** -q, --quiet: fewer findings; the help line is the command's. */
export const quietFlag = (description: string) => flag.boolean({ char: 'q', description })

/** --config and --no-config: which .ongrid-skill.yaml applies (core/lint/config.ts). */
export const configFlags = (what: string) => ({
  config: flag.string({
    description: `the config file for every PATH (default: the nearest .ongrid-skill.yaml or .ongrid-skill.yml above each file)${what}`,
    exclusive: ['no-config'],
  }),
  'no-config': flag.boolean({ description: 'read no config file' }),
})

/**
 * --manager-version: the ongrid manager release answered for, over ONGRID_MANAGER_VERSION and the
 * config's `manager_version` (resolved by cli/manager-version.ts, which refuses other values).
 */
export const managerVersionFlag = flag.string({
  description: `the ongrid manager release to answer for: ${SUPPORTED_MANAGER_VERSIONS.join(', ')} (default: ${MANAGER_VERSION_ENV}, else the config's manager_version, else ${DEFAULT_MANAGER_VERSION})`,
  helpValue: 'VERSION',
})

/** `run` and `test`'s flags for watching a run (cli/trace.ts; README, "What --trace and --sandbox see"). */
export const traceFlagDefs = {
  trace: flag.boolean({
    description:
      "run the entry under strace and report what it did to the host (files, processes, signals, connections, privileges), held to the skill's class",
  }),
  sandbox: flag.boolean({
    description:
      'trace the run inside bubblewrap: the host read-only, /tmp, /var/tmp and /run empty and thrown away, no network; writes are reported, never applied',
  }),
  'allow-net': flag.boolean({ description: 'with --sandbox: leave the network on' }),
}
