import { managerDefaultsNote, resolveSource, type Source } from '../../core/audit/dsn.js'
import type { AuditRow } from '../../core/audit/row.js'
import type { Filter } from '../../core/audit/tables.js'
import { fromText, toText } from '../../core/go/gostring.js'
import { parseDuration } from '../../core/go/time/duration.js'
import { EXIT, type InputOf, UserError } from '../errors.js'
import { parseNumberFlag } from '../number-flag.js'
import { textPath } from '../os-bytes.js'
import { onStopSignals } from '../signals.js'
import type { auditTailSpec as AuditTail } from '../specs/audit-tail.js'

/** Exit codes of `audit tail`. */
export const TAIL_EXIT = {
  ok: EXIT.ok,
  /** Usage errors, and the database errors (unreachable, refused, missing table, locked, corrupt). */
  error: EXIT.usage,
  /** Ctrl-C (SIGINT) while following or reading; any stop signal exits 128 + its number (143 SIGTERM, 129 SIGHUP, 131 SIGQUIT). */
  interrupted: 130,
  terminated: 143,
} as const

const POLL_MS = 250

/** audit tail: the last rows of the audit table, then new ones as they are committed. */
export async function auditTailAction({ flags }: InputOf<typeof AuditTail>): Promise<number> {
  const lines = flags.lines === undefined ? undefined : parseNumberFlag('lines', flags.lines, { min: 0 }, 'n')
  // A --db that names no usable source is a usage error (SourceError).
  if (flags.db?.startsWith('sqlite:')) textPath('--db', flags.db)
  const source: Source = resolveSource(flags.db)
  if (flags.llm && flags['caller-role'] !== undefined) {
    throw new UserError(
      '--caller-role does not apply to --llm: tool calls carry the session’s user, not a role',
    )
  }
  if (!flags.llm && flags.status === 'pending') {
    throw new UserError('--status pending: only LLM tool calls are ever pending (add --llm)')
  }
  const filter: Filter = {
    skill: flags.skill,
    status: flags.status,
    callerRole: flags['caller-role'],
  }
  if (flags.edge !== undefined) {
    if (!/^\d+$/.test(flags.edge))
      throw new UserError(`--edge ${flags.edge}: expected an edge id (an integer ≥ 0)`)
    filter.edge = BigInt(flags.edge)
  }
  if (flags.since !== undefined) filter.sinceNs = parseSince(flags.since, Date.now())
  const gapWait = flags['gap-wait'] ?? '10s'
  const gap = parseDuration(fromText(gapWait))
  if (!gap.ok || gap.value <= 0n) {
    throw new UserError(`--gap-wait ${gapWait}: expected a positive duration such as 10s or 1m`)
  }

  const json = flags.json === true
  const { painterFor, headerLine, humanLine, jsonLine } = await import('../../ui/audit.js')
  const painter = json ? undefined : await painterFor(process.stdout)
  // On a terminal, what rows hold is shown, never obeyed: control characters escaped (%q), and
  // a newline in a field too (a row is one line: a skill_key cannot print a row of its own).
  const tty = process.stdout.isTTY === true
  const { terminalLineText } = await import('../../ui/terminal.js')
  const shown = (r: AuditRow): AuditRow =>
    tty
      ? {
          ...r,
          skill: terminalLineText(r.skill, true),
          class: r.class === null ? null : terminalLineText(r.class, true),
          callerRole: r.callerRole === null ? null : terminalLineText(r.callerRole, true),
          error: r.error === null ? null : terminalLineText(r.error.split(/\r?\n/)[0], true),
        }
      : r
  // On a terminal, a header row and each time's zone; piped, the rows only (scripts cut columns).
  const format = json ? jsonLine : (r: AuditRow) => humanLine(shown(r), painter, tty)
  let header = !json && tty ? headerLine(painter, true) : ''

  const controller = new AbortController()
  let exitCode: number = TAIL_EXIT.ok
  let stdoutClosed = false
  // Any stop signal ends the follow: exit 128 + its number (a second one exits at once).
  const offSignals = onStopSignals((_signal, code) => {
    exitCode = code
    controller.abort()
  })
  // `audit tail -f | head`: the reader went away; stop quietly.
  const onStdoutError = (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e
    stdoutClosed = true
    controller.abort()
  }
  process.stdout.on('error', onStdoutError)

  const note = (line: string) =>
    process.stderr.write(`ongrid-skill: ${terminalLineText(line, process.stderr.isTTY === true)}\n`)
  if (flags.db === 'manager') {
    const fell = managerDefaultsNote(process.env)
    if (fell !== null) note(fell)
  }
  let rows = 0
  let pending: string[] = []
  const { tail } = await import('../../core/audit/tail.js')
  // A database failure (AuditError, a UserError) ends it with TAIL_EXIT.error.
  try {
    await tail({
      source,
      llm: flags.llm === true,
      filter,
      limit: lines ?? (filter.sinceNs !== undefined ? null : 10),
      follow: flags.follow === true,
      pollMs: POLL_MS,
      gapWaitMs: Number(gap.value / 1_000_000n),
      signal: controller.signal,
      row: (r) => {
        rows++
        pending.push(format(r))
      },
      flush: () => {
        if (pending.length === 0 || stdoutClosed) return
        process.stdout.write(header + pending.join(''))
        header = ''
        pending = []
      },
      notice: note,
    })
  } finally {
    offSignals()
  }
  // Nothing printed: say so (on stderr, stdout stays the rows), and which filters were set.
  if (rows === 0 && flags.follow !== true && exitCode === TAIL_EXIT.ok) {
    const set = [
      flags.skill !== undefined ? `--skill ${flags.skill}` : '',
      flags.status !== undefined ? `--status ${flags.status}` : '',
      flags['caller-role'] !== undefined ? `--caller-role ${flags['caller-role']}` : '',
      flags.edge !== undefined ? `--edge ${flags.edge}` : '',
      flags.since !== undefined ? `--since ${flags.since}` : '',
    ].filter((s) => s !== '')
    if (!json) note(set.length > 0 ? `no rows matched ${set.join(' ')}` : 'no rows yet')
  }
  // --json: the rows are JSON lines; the last line is the document (schemas/output/audit-tail.schema.json).
  if (json && !stdoutClosed) {
    const { envelope } = await import('../../ui/envelope.js')
    const doc = envelope('audit tail', exitCode, { rows }, `stopped (exit ${exitCode})`)
    process.stdout.write(`${JSON.stringify(doc)}\n`)
  }
  return exitCode
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/

/** `--since`: a Go duration before `nowMs`, or an RFC 3339 time; ns since the epoch. */
export function parseSince(text: string, nowMs: number): bigint {
  const m = RFC3339.exec(text)
  if (m) {
    const ms = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[8].toUpperCase()}`)
    if (!Number.isNaN(ms)) return BigInt(ms) * 1_000_000n + BigInt((m[7] ?? '.').slice(1).padEnd(9, '0'))
  }
  const d = parseDuration(fromText(text))
  if (d.ok && d.value >= 0n) return BigInt(nowMs) * 1_000_000n - d.value
  throw new UserError(
    `--since ${text}: expected a duration such as 10m or 1h30m, or an RFC 3339 time such as 2026-05-01T08:00:00Z${d.ok ? '' : ` (${toText(d.err.error())})`}`,
  )
}
