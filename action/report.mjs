// The action's report step: the outputs (errors, warnings, baselined; the CLI's own counts) and a
// Markdown summary on the job's summary page.
//   validate, lint, marketplace-check: the command once as JSON; with sarif, once more as SARIF
//   (the sarif-file output). It never fails the job itself: the check step does.
//   test: the cases run once, here: the chosen format on the log and the json document in a file
//   (--json-file), from which the outputs, the summary and the failed cases' annotations come;
//   its exit code is the exit-code output, which the check step exits with. With format github
//   (the default), the log is spec and each failed case is annotated on its case file.
import { spawnSync } from 'node:child_process'
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { isAbsolute, join, relative } from 'node:path'
import { cliArgs, escapeData, fail, inputs, setOutputs, workingDir } from './common.mjs'

/** Rows of findings shown in the summary; the rest are counted. */
const MAX_ROWS = 200

const i = inputs()
if (i.cli === '') fail('no ongrid-skill to run (the install step gave no cli output)')
const cwd = workingDir(i)
// Paths the CLI gives are relative to its working dir; GitHub's are relative to the workspace.
const under = relative(i.workspace, cwd)
const fromWorkspace = (p) => (isAbsolute(p) || under === '' ? p : join(under, p))

function run(format, extra = [], stdout = 'pipe') {
  return spawnSync(i.cli, [...cliArgs(i, format), ...extra], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
    stdio: ['ignore', stdout, 'pipe'],
  })
}

/** Markdown table cell text: one line, no pipe, no HTML. */
const cell = (s) =>
  String(s ?? '')
    .replace(/\r?\n/g, ' ')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('|', '\\|')
    .replaceAll('`', "'")

const property = (s) => escapeData(s).replaceAll(',', '%2C').replaceAll(':', '%3A')
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`

const label = i.command === 'marketplace-check' ? 'marketplace check' : i.command
const lines = []
const outputs = { errors: 0, warnings: 0, baselined: 0, 'sarif-file': '', 'exit-code': '' }

/** The JSON document the CLI wrote (stdout or a file), or undefined with why. */
function parse(text) {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

let doc
let r
if (i.command === 'test') {
  // The log's format: test has no github format (failed cases are annotated below).
  const format = ['spec', 'tap', 'junit', 'json'].includes(i.format) ? i.format : 'spec'
  const file = join(i.temp, 'ongrid-skill-test.json')
  rmSync(file, { force: true })
  r = run(format, ['--json-file', file], 'inherit')
  if (r.error) fail(`cannot start ${i.cli}: ${r.error.message}`)
  process.stderr.write(r.stderr)
  let text = ''
  try {
    text = readFileSync(file, 'utf8')
  } catch {}
  doc = parse(text)
  outputs['exit-code'] = r.status ?? 1
} else {
  r = run('json')
  doc = parse(r.stdout)
}
if (
  doc === undefined ||
  (doc.ok === false && doc.error?.kind !== 'failed' && doc.files === undefined && doc.packs === undefined)
) {
  const why = (doc?.error?.message ?? (r.stderr || r.stdout || `exit ${r.status}`)).trim().split('\n')[0]
  lines.push(`### ongrid-skill ${label}: could not check`, '', `\`${cell(why)}\``)
  outputs.errors = ''
  outputs.warnings = ''
  outputs.baselined = ''
} else if (i.command === 'test') {
  const s = doc.summary ?? {}
  const failed = []
  for (const p of doc.packs ?? []) {
    for (const c of p.cases ?? []) if (!c.passed) failed.push({ pack: p, c })
  }
  outputs.errors = failed.length
  lines.push(
    `### ongrid-skill test: ${s.passed ?? 0} passed, ${s.failed ?? 0} failed${s.not_run ? `, ${s.not_run} not run` : ''}`,
    '',
  )
  if (failed.length > 0) {
    lines.push('| pack | case | file | why |', '|---|---|---|---|')
    for (const { pack, c } of failed.slice(0, MAX_ROWS)) {
      const why = c.failures?.length
        ? c.failures.map((f) => f.message ?? JSON.stringify(f)).join('; ')
        : (c.error ?? '')
      const where = fromWorkspace(join(pack.dir ?? '', c.file ?? ''))
      lines.push(`| ${cell(pack.name)} | ${cell(c.name)} | ${cell(where)} | ${cell(why)} |`)
      if (i.format === 'github') {
        process.stdout.write(
          `::error file=${property(where)},title=${property(`${pack.name}: ${c.name}`)}::${escapeData(why)}\n`,
        )
      }
    }
    if (failed.length > MAX_ROWS) lines.push('', `…and ${failed.length - MAX_ROWS} more.`)
  }
  // Traced cases (trace: true, or cases that pin expect.effects): what each did to the host.
  const effects = []
  for (const p of doc.packs ?? [])
    for (const c of p.cases ?? []) for (const e of c.trace?.effects ?? []) effects.push({ pack: p, c, e })
  if (effects.length > 0) {
    lines.push(
      '',
      '#### Effects on the host',
      '',
      '| pack | case | kind | what | syscall |',
      '|---|---|---|---|---|',
    )
    for (const { pack, c, e } of effects.slice(0, MAX_ROWS)) {
      const what =
        e.kind === 'exec'
          ? (e.argv ?? []).join(' ')
          : e.kind === 'connect'
            ? `${e.address}${e.port !== undefined ? `:${e.port}` : ''}`
            : e.kind === 'signal'
              ? `${e.signal} to ${e.target ?? 'a pidfd'}`
              : `${e.path ?? ''}${e.to !== undefined ? ` → ${e.to}` : ''}`
      lines.push(
        `| ${cell(pack.name)} | ${cell(c.name)} | ${cell(e.kind)} | ${cell(what)} | ${cell(`${e.syscall}${e.error ? ` (${e.error})` : ''}`)} |`,
      )
    }
    if (effects.length > MAX_ROWS) lines.push('', `…and ${effects.length - MAX_ROWS} more.`)
  }
} else {
  // Findings a baseline accepts are counted as the CLI counts them, apart, and not listed.
  const rows = []
  let baselined = 0
  for (const f of doc.files ?? []) {
    for (const x of f.findings ?? []) {
      if (x.baselined === true) baselined++
      else rows.push({ path: f.path, ...x })
    }
  }
  const count = (severity) => rows.filter((x) => x.severity === severity).length
  const s = doc.summary ?? {}
  outputs.errors = s.errors ?? count('error')
  outputs.warnings = s.warnings ?? count('warn')
  outputs.baselined = s.baselined ?? baselined
  const infos = s.infos ?? count('info')
  const files = s.files ?? (doc.files ?? []).length
  lines.push(
    `### ongrid-skill ${label}: ${plural(outputs.errors, 'error')}, ${plural(outputs.warnings, 'warning')}${infos ? `, ${infos} info` : ''}${outputs.baselined ? `, ${outputs.baselined} baselined` : ''} in ${plural(files, 'file')}`,
    '',
  )
  const order = { error: 0, warn: 1, info: 2 }
  rows.sort((a, b) => (order[a.severity] ?? 3) - (order[b.severity] ?? 3))
  if (rows.length > 0) {
    lines.push('| severity | where | rule | message |', '|---|---|---|---|')
    for (const x of rows.slice(0, MAX_ROWS)) {
      const path = fromWorkspace(x.path)
      const where = x.line ? `${path}:${x.line}` : path
      lines.push(`| ${cell(x.severity)} | ${cell(where)} | ${cell(x.rule_id ?? '')} | ${cell(x.message)} |`)
    }
    if (rows.length > MAX_ROWS) lines.push('', `…and ${rows.length - MAX_ROWS} more.`)
  }
  const fixed = s.fixed ?? 0
  if (fixed > 0) {
    lines.push(
      '',
      `${plural(fixed, 'baselined finding')} no longer found: \`lint --prune-baseline\` drops them.`,
    )
  }
}
if (i.sarif && i.command !== 'test' && doc !== undefined) {
  const s = run('sarif')
  if (s.stdout.trim() !== '') {
    const file = join(i.temp, `ongrid-skill-${i.command}.sarif`)
    writeFileSync(file, s.stdout)
    outputs['sarif-file'] = file
  }
}
setOutputs(outputs)
const summary = process.env.GITHUB_STEP_SUMMARY
if (summary) appendFileSync(summary, `${lines.join('\n')}\n`)
