import chalk from 'chalk'
import { displayDir, type InitResult } from '../../core/init/init.js'
import type { Template } from '../../core/init/templates.js'
import { terminalLineText } from '../terminal.js'

/**
 * What init prints when done: the files, then the commands to type next. On a `terminal`, names
 * from the template and the target (a `--template DIR`'s files) are shown escaped as %q would.
 */
export function initSummary(
  r0: InitResult,
  t0: Template,
  next0: string[],
  cwd = process.cwd(),
  terminal = false,
): string {
  const l = (s: string) => terminalLineText(s, terminal)
  const r = {
    ...r0,
    entry: l(r0.entry),
    written: r0.written.map(l),
    kept: r0.kept.map(l),
    skipped: r0.skipped.map(l),
  }
  const t = { ...t0, name: l(t0.name) }
  const next = next0.map(l)
  const where = `${l(displayDir(r.dir, cwd))}/`
  const n = r.written.length
  const lines = [
    r.kept.length === 0 && r.skipped.length === 0
      ? `Created ${where} from the ${t.name} template:`
      : n === 0
        ? `Nothing added: ${where} already has every file of the ${t.name} template:`
        : `Added ${n} file${n === 1 ? '' : 's'} to ${where} from the ${t.name} template, and kept what was there:`,
  ]
  const width = Math.max(...[...r.written, ...r.kept, ...r.skipped].map((p) => p.length))
  const row = (mark: string, path: string, note: string) =>
    `  ${mark} ${note ? `${path.padEnd(width)}  ${chalk.dim(note)}` : path}`
  for (const p of r.written) {
    lines.push(row(chalk.green('+'), p, p === r.entry ? 'the entry, executable' : ''))
  }
  for (const p of r.kept) lines.push(row(chalk.dim('='), p, 'kept (exists)'))
  const rebuild = t.build ? `; run ./${t.build.script}` : ''
  for (const p of r.skipped) {
    lines.push(row(chalk.yellow('-'), p, `not added: the pack's files differ from the template's${rebuild}`))
  }
  lines.push('', chalk.bold('Next:'), ...next.map((c) => `  ${c}`))
  return `${lines.join('\n')}\n`
}

/** The --json document. */
export function initJson(r: InitResult, name: string, t: Template, next: string[]) {
  return {
    dir: r.dir,
    name,
    template: t.builtin ? t.name : t.dir,
    entry: r.entry,
    files: r.written,
    kept: r.kept,
    skipped: r.skipped,
    build: r.build === null ? null : r.build.status,
    next,
    warnings: r.warnings,
  }
}

/** --list-templates: one line each. */
export function templateList(templates: Template[]): string {
  const width = Math.max(...templates.map((t) => t.name.length))
  return `${templates.map((t) => `${t.name.padEnd(width)}  ${t.description}`).join('\n')}\n`
}

export function templateListJson(templates: Template[]) {
  return templates.map((t) => ({
    name: t.name,
    description: t.description,
    entry: t.entry,
    env_allow: t.envAllow,
    build: t.build,
  }))
}
