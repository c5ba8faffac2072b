// What the action's steps share: the CLI's argv for the chosen command, and writing step outputs.
// Plain Node (22.13+), no dependencies: the action runs these from its own checkout.
import { appendFileSync } from 'node:fs'

export const COMMANDS = ['validate', 'lint', 'test', 'marketplace-check']
const SEVERITIES = ['error', 'warn', 'info']

/** The inputs the steps receive as ONGRID_ACTION_* variables. */
export function inputs(env = process.env) {
  return {
    cli: env.ONGRID_ACTION_CLI ?? '',
    command: (env.ONGRID_ACTION_COMMAND ?? 'lint').trim(),
    paths: (env.ONGRID_ACTION_PATHS ?? '.').split(/\s+/).filter((p) => p !== ''),
    format: (env.ONGRID_ACTION_FORMAT ?? 'github').trim(),
    failSeverity: (env.ONGRID_ACTION_FAIL_SEVERITY ?? '').trim(),
    baseline: (env.ONGRID_ACTION_BASELINE ?? '').trim(),
    sarif: (env.ONGRID_ACTION_SARIF ?? 'false').trim() === 'true',
    trace: (env.ONGRID_ACTION_TRACE ?? 'false').trim() === 'true',
    temp: env.ONGRID_ACTION_TEMP ?? env.RUNNER_TEMP ?? '/tmp',
  }
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
    return ['marketplace', 'check', i.paths[0], '--format', format]
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
  return args
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
