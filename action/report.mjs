// The action's report step: the command once as JSON, to count findings (the errors and warnings
// outputs) and write a Markdown summary of them to the job's summary page; with sarif, once more
// as SARIF (the sarif-file output). It never fails the job itself: the check step does.
import { spawnSync } from 'node:child_process'
import { appendFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cliArgs, escapeData, fail, inputs, setOutputs } from './common.mjs'

/** Rows of findings shown in the summary; the rest are counted. */
const MAX_ROWS = 200

const i = inputs()
if (i.cli === '') fail('no ongrid-skill to run (the install step gave no cli output)')

function run(format) {
  return spawnSync(i.cli, cliArgs(i, format), { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 })
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

const label = i.command === 'marketplace-check' ? 'marketplace check' : i.command
const lines = []
const outputs = { errors: 0, warnings: 0, 'sarif-file': '' }
const r = run('json')
let doc
try {
  doc = JSON.parse(r.stdout)
} catch {
  doc = undefined
}
if (doc === undefined) {
  const why = (r.stderr || r.stdout || `exit ${r.status}`).trim().split('\n')[0]
  lines.push(`### ongrid-skill ${label}: could not check`, '', `\`${cell(why)}\``)
  outputs.errors = ''
  outputs.warnings = ''
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
      lines.push(
        `| ${cell(pack.name)} | ${cell(c.name)} | ${cell(join(pack.dir ?? '', c.file ?? ''))} | ${cell(why)} |`,
      )
      if (i.format === 'github') {
        process.stdout.write(
          `::error file=${escapeData(join(pack.dir ?? '', c.file ?? ''))
            .replaceAll(',', '%2C')
            .replaceAll(
              ':',
              '%3A',
            )},title=${escapeData(`${pack.name}: ${c.name}`).replaceAll(',', '%2C').replaceAll(':', '%3A')}::${escapeData(why)}\n`,
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
  const rows = []
  for (const f of doc.files ?? []) {
    for (const x of f.findings ?? []) rows.push({ path: f.path, ...x })
  }
  outputs.errors = rows.filter((x) => x.severity === 'error').length
  outputs.warnings = rows.filter((x) => x.severity === 'warn').length
  const infos = rows.length - outputs.errors - outputs.warnings
  const files = (doc.files ?? []).length
  lines.push(
    `### ongrid-skill ${label}: ${outputs.errors} error${outputs.errors === 1 ? '' : 's'}, ${outputs.warnings} warning${outputs.warnings === 1 ? '' : 's'}${infos ? `, ${infos} info` : ''} in ${files} file${files === 1 ? '' : 's'}`,
    '',
  )
  const order = { error: 0, warn: 1, info: 2 }
  rows.sort((a, b) => (order[a.severity] ?? 3) - (order[b.severity] ?? 3))
  if (rows.length > 0) {
    lines.push('| severity | where | rule | message |', '|---|---|---|---|')
    for (const x of rows.slice(0, MAX_ROWS)) {
      const where = x.line ? `${x.path}:${x.line}` : x.path
      lines.push(
        `| ${cell(x.severity)} | ${cell(where)} | ${cell(x.ruleId ?? x.rule_id ?? '')} | ${cell(x.message)} |`,
      )
    }
    if (rows.length > MAX_ROWS) lines.push('', `…and ${rows.length - MAX_ROWS} more.`)
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
