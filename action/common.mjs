// What the action's steps share: the CLI's argv for the chosen command, and writing step outputs.
// Plain Node (22.13+), no dependencies: the action runs these from its own checkout.
import { appendFileSync, statSync } from 'node:fs'
import { resolve } from 'node:path'

export const COMMANDS = ['validate', 'lint', 'test', 'marketplace-check']
const SEVERITIES = ['error', 'warn', 'info']

/** The inputs the steps receive as ONGRID_ACTION_* variables. */
export function inputs(env = process.env) {
  return {
    cli: env.ONGRID_ACTION_CLI ?? '',
    command: (env.ONGRID_ACTION_COMMAND ?? 'lint').trim(),
    paths: list(env.ONGRID_ACTION_PATHS ?? '.'),
    args: list(env.ONGRID_ACTION_ARGS ?? ''),
    config: (env.ONGRID_ACTION_CONFIG ?? '').trim(),
    workdir: (env.ONGRID_ACTION_WORKDIR ?? '').trim(),
    workspace: env.GITHUB_WORKSPACE ?? process.cwd(),
    format: (env.ONGRID_ACTION_FORMAT ?? 'github').trim(),
    failSeverity: (env.ONGRID_ACTION_FAIL_SEVERITY ?? '').trim(),
    baseline: (env.ONGRID_ACTION_BASELINE ?? '').trim(),
    sarif: (env.ONGRID_ACTION_SARIF ?? 'false').trim() === 'true',
    trace: (env.ONGRID_ACTION_TRACE ?? 'false').trim() === 'true',
    temp: env.ONGRID_ACTION_TEMP ?? env.RUNNER_TEMP ?? '/tmp',
  }
}

/**
 * A list input: one item a line when it holds a line break (so an item may hold spaces), else
 * separated by spaces.
 */
export function list(text) {
  const items = /[\r\n]/.test(text) ? text.split(/\r?\n|\r/).map((l) => l.trim()) : text.split(/\s+/)
  return items.filter((x) => x !== '')
}

/** The dir the command runs in: working-directory, relative to the workspace; refused when not a dir. */
export function workingDir(i) {
  const dir = resolve(i.workspace, i.workdir)
  let ok = false
  try {
    ok = statSync(dir).isDirectory()
  } catch {}
  if (!ok) fail(`working-directory ${i.workdir} is not a directory in the workspace`)
  return dir
}

/** Stops the step with one annotation, exit 2. */
export function fail(message) {
  process.stdout.write(`::error title=ongrid-skill::${escapeData(message)}\n`)
  process.exit(2)
}

/** The CLI's arguments for the inputs, with `format`; refuses inputs that do not fit. */
export function cliArgs(i, format) {
  if (!COMMANDS.includes(i.command)) {
    fail(`command must be one of ${COMMANDS.join(', ')}, not "${i.command}"`)
  }
  if (i.paths.length === 0) i.paths = ['.']
  if (i.failSeverity !== '' && !SEVERITIES.includes(i.failSeverity)) {
    fail(`fail-severity must be one of ${SEVERITIES.join(', ')}, not "${i.failSeverity}"`)
  }
  if (i.command === 'marketplace-check') {
    if (i.paths.length !== 1) fail('marketplace-check takes one path: a pack dir or archive')
    if (i.config !== '') fail('config is for the validate and lint commands')
    return ['marketplace', 'check', i.paths[0], '--format', format, ...i.args]
  }
  const args = [i.command, ...i.paths, '--format', format]
  // validate fails on errors only (the manager's own refusals); lint takes a threshold.
  if (i.command === 'lint' && i.failSeverity !== '') args.push('--fail-severity', i.failSeverity)
  if (i.baseline !== '') {
    if (i.command !== 'lint') fail('baseline is for the lint command')
    args.push('--baseline', i.baseline)
  }
  if (i.trace) {
    if (i.command !== 'test') fail('trace is for the test command')
    args.push('--trace')
  }
  if (i.config !== '') {
    if (i.command !== 'lint' && i.command !== 'validate') fail('config is for the validate and lint commands')
    args.push('--config', i.config)
  }
  return [...args, ...i.args]
}

/** Sets step outputs (GITHUB_OUTPUT; one line each, so no value may hold a newline). */
export function setOutputs(values, env = process.env) {
  const file = env.GITHUB_OUTPUT
  const text = Object.entries(values)
    .map(([k, v]) => `${k}=${String(v).replace(/[\r\n]/g, ' ')}\n`)
    .join('')
  if (file) appendFileSync(file, text)
  else process.stdout.write(text)
}

/** A workflow command's data: %, CR and LF escaped as the runner reads them. */
export function escapeData(s) {
  return String(s).replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A')
}
