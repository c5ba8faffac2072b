import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { CaseFileError, EVALS_FILE, type EvalCase, loadEvalCases } from '../../core/agent/cases.js'
import { type CallRecord, type ChatOutcome, type Reply, runTurn } from '../../core/agent/loop.js'
import { callPack, type EvalPack, scanPacks } from '../../core/agent/packs.js'
import {
  type Assembled,
  assembleTools,
  DEFAULT_MODEL,
  firstRequest,
  normalizeBaseURL,
  PROFILES,
  type Profile,
} from '../../core/agent/request.js'
import {
  confusion,
  judge,
  perTool,
  type RunScore,
  rates,
  runSeed,
  seeded,
  shuffle,
} from '../../core/agent/score.js'
import { writeFileAtomic } from '../../core/atomic-write.js'
import { fromText, type GoString, toText } from '../../core/go/gostring.js'
import { readFileBounded } from '../../core/read-bounded.js'
import { envelope } from '../../ui/envelope.js'
import { type EvalReport, type EvalRun, renderEval } from '../../ui/eval.js'
import { terminalLineText } from '../../ui/terminal.js'
import { EXIT, type InputOf, printJson, UserError } from '../errors.js'
import { collectGarbage } from '../gc.js'
import { managerReleaseOf } from '../manager-version.js'
import { argBytes, pathFlag } from '../os-bytes.js'
import { onStopSignals } from '../signals.js'
import type { evalSpec as Eval } from '../specs/eval.js'

/** Exit codes of `eval`: 0 every run passed (or --min-pass-rate met), 1 otherwise, 2 usage. */
export const EVAL_EXIT = { passed: EXIT.ok, failed: EXIT.findings, usage: EXIT.usage } as const

/** The most a key file or a recording may hold. */
const MAX_KEY_FILE = 64 * 1024
const MAX_RECORDING = 256 * 1024 * 1024

/** One request and its answer, as --record keeps them. */
interface Exchange {
  case: string
  round: number
  request: number
  body: string
  status: number
  response: string
}

interface Recording {
  format: 'ongrid-skill-eval-recording'
  version: 1
  model: string
  profile: Profile
  seed: number
  exchanges: Exchange[]
}

/** `eval PATH...`: the manager's agent request, or the agent loop over a case file. */
export async function evalAction({ argv, flags }: InputOf<typeof Eval>): Promise<number> {
  const json = flags.json === true
  const profile = flags.profile as Profile
  if (!(PROFILES as readonly string[]).includes(profile))
    throw new UserError(`--profile: one of ${PROFILES.join(', ')}`)
  const { release } = await managerReleaseOf(flags)
  const scan = scanPacks(
    (argv.length > 0 ? argv : ['.']).map(argBytes),
    release.builtinSkillKeys,
    pathFlag(flags.root),
  )
  const assembled = assembleTools(profile, scan.packs, {
    webSearch: flags['web-search'] === true,
    k8sWrite: flags['k8s-write'] === true,
    // The tools the legacy agent registers and the builtin skills, as of that release.
    present: [...release.legacyAgentTools, ...release.builtinSkillKeys],
  })

  // What the manager would not offer, and why: the loader's or the bridge's line.
  if (!json)
    for (const n of scan.notOffered)
      process.stderr.write(`eval: not offered: ${terminalLineText(n.line, process.stderr.isTTY === true)}\n`)

  if (flags['print-request']) {
    if (flags.prompt === undefined) throw new UserError('--print-request needs --prompt TEXT')
    const model = flags.model ?? DEFAULT_MODEL
    const body = firstRequest(model, flags.prompt, assembled.offered)
    if (json) {
      printJson(
        envelope('eval', EXIT.ok, {
          profile,
          model,
          tools: assembled.offered.map((t) => ({ name: toText(t.name), kind: t.kind, source: t.source })),
          shadowed: assembled.shadowed.map(toText),
          not_offered: scan.notOffered,
          request: JSON.parse(toText(body)),
        }),
      )
    } else process.stdout.write(Buffer.concat([Buffer.from(body, 'latin1'), Buffer.from('\n')]))
    return EXIT.ok
  }

  if (scan.packs.length === 0 && scan.notOffered.length === 0)
    throw new UserError('no skill pack found under the PATHs')
  const repeat = parseCount('--repeat', flags.repeat ?? '1', 1, 1000)
  const minRate = flags['min-pass-rate'] === undefined ? null : parseRate(flags['min-pass-rate'])
  const replay = flags.replay === undefined ? null : readRecording(flags.replay)
  if (flags.record !== undefined && existsSync(flags.record))
    throw new UserError(
      `--record ${flags.record}: exists (it is not overwritten; remove it or name another file)`,
    )
  const model = replay?.model ?? flags.model ?? DEFAULT_MODEL
  const seed =
    replay?.seed ??
    (flags.seed !== undefined ? parseCount('--seed', flags.seed, 0, 2 ** 32 - 1) : randomSeed())
  const suites = casesFor(flags.cases, scan.packs)

  // A stop signal kills the pack running (its process group) and ends the request in flight.
  const stop = new AbortController()
  let stopCode = 0
  const exchanges: Exchange[] = []
  const where = { case: '', round: 0, request: 0 }
  const chat = await chatClient({
    signal: stop.signal,
    replay,
    record: flags.record !== undefined ? exchanges : null,
    where,
    baseURL: normalizeBaseURL(
      flags['base-url'] ?? process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
    ),
    apiKey: replay !== null ? 'replay' : apiKey(flags['api-key-file']),
  })

  const offSignals = onStopSignals((_signal, code) => {
    stopCode = code
    stop.abort()
  })
  try {
    return await evaluate()
  } finally {
    offSignals()
  }

  async function evaluate(): Promise<number> {
    const sampling = { refuses: false }
    const runs: EvalRun[] = []
    let transportError: string | null = null
    let caseIndex = 0
    for (const suite of suites) {
      for (const c of suite.cases) {
        checkCanned(c, assembled, suite.file)
        for (let round = 0; round < repeat; round++) {
          Object.assign(where, { case: c.name, round, request: 0 })
          const next = seeded(runSeed(seed, caseIndex, round))
          const t = await runTurn(
            {
              model,
              prompt: fromText(c.prompt),
              registry: assembled.registry,
              offered: assembled.offered,
              webSearch: flags['web-search'] === true,
              sampling,
            },
            {
              chat,
              order: (tools) => shuffle(tools, next),
              builtin: (name) => {
                const v = c.toolResults[toText(name)]
                return v === undefined ? null : fromText(JSON.stringify(v))
              },
              runPack: (entry, params) =>
                callPack(scan.packs, entry.name, params, { signal: stop.signal, collectGarbage }),
            },
          )
          if (stop.signal.aborted) return stopCode
          if (t.error !== null && !t.error.startsWith('replay:')) transportError ??= t.error
          runs.push(
            scoreRun(
              suite.file,
              c,
              round,
              t.calls,
              t.answer,
              t.usage,
              t.iterations,
              t.capped,
              t.error,
              scan.packs,
            ),
          )
        }
        caseIndex++
      }
    }
    await checkArgsSchemas(runs, scan.packs)

    if (flags.record !== undefined) {
      const rec: Recording = {
        format: 'ongrid-skill-eval-recording',
        version: 1,
        model,
        profile,
        seed,
        exchanges,
      }
      writeFileAtomic(flags.record, `${JSON.stringify(rec, null, 1)}\n`)
    }

    const report = summarize(runs, repeat, {
      model,
      profile,
      seed,
      minRate,
      shadowed: assembled.shadowed.map(toText),
    })
    const code =
      transportError !== null ? EVAL_EXIT.usage : report.passed ? EVAL_EXIT.passed : EVAL_EXIT.failed
    if (json)
      printJson(
        envelope(
          'eval',
          code,
          report.document,
          transportError !== null ? `the endpoint failed: ${transportError}` : 'not every case passed',
        ),
      )
    else
      process.stdout.write(
        renderEval(report, flags.format === 'junit' ? 'junit' : 'stylish', process.stdout.isTTY === true),
      )
    if (transportError !== null && !json)
      process.stderr.write(`ongrid-skill: the endpoint failed: ${transportError}\n`)
    return code
  }
}

function parseCount(flag: string, text: string, min: number, max: number): number {
  if (!/^\d+$/.test(text)) throw new UserError(`${flag}: a whole number (got ${JSON.stringify(text)})`)
  const n = Number(text)
  if (n < min || n > max) throw new UserError(`${flag}: from ${min} to ${max} (got ${text})`)
  return n
}

function parseRate(text: string): number {
  const n = Number(text.endsWith('%') ? text.slice(0, -1) : text) / (text.endsWith('%') ? 100 : 1)
  if (text.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1)
    throw new UserError(`--min-pass-rate: a rate from 0 to 1 or a percentage (got ${JSON.stringify(text)})`)
  return n
}

function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 32)
}

/** The key: OPENAI_API_KEY, or the first line of --api-key-file; never from argv, never printed. */
function apiKey(file: string | undefined): string {
  if (file !== undefined) {
    let text: string
    try {
      text = readFileBounded(file, MAX_KEY_FILE, { regularOnly: true }).toString('utf8')
    } catch (e) {
      throw new UserError(
        `--api-key-file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      )
    }
    const key = text.split('\n')[0].trim()
    if (key === '') throw new UserError(`--api-key-file ${file}: empty`)
    return key
  }
  const key = process.env.OPENAI_API_KEY
  // A local server (Ollama, vLLM) takes any key; the client needs one to send.
  return key === undefined || key === '' ? 'none' : key
}

function readRecording(file: string): Recording {
  let doc: unknown
  try {
    doc = JSON.parse(readFileBounded(file, MAX_RECORDING, { regularOnly: true }).toString('utf8'))
  } catch (e) {
    throw new UserError(`--replay ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`)
  }
  const r = doc as Recording
  if (
    r === null ||
    typeof r !== 'object' ||
    r.format !== 'ongrid-skill-eval-recording' ||
    r.version !== 1 ||
    !Array.isArray(r.exchanges)
  )
    throw new UserError(`--replay ${file}: not a recording of eval --record`)
  return r
}

interface Suite {
  file: string
  cases: EvalCase[]
}

function casesFor(file: string | undefined, packs: readonly EvalPack[]): Suite[] {
  try {
    if (file !== undefined) return [{ file, cases: loadEvalCases(file) }]
    const suites = packs
      .map((p) => join(p.dir, EVALS_FILE))
      .filter((f) => existsSync(f))
      .map((f) => ({ file: f, cases: loadEvalCases(f) }))
    if (suites.length === 0)
      throw new UserError(`no case file: give --cases FILE, or write ${EVALS_FILE} in a pack`)
    return suites
  } catch (e) {
    if (e instanceof CaseFileError) throw new UserError(e.message)
    throw e
  }
}

/** Canned results are for builtins: a pack's calls run the pack, an unknown name is a typo. */
function checkCanned(c: EvalCase, assembled: Assembled, file: string): void {
  for (const name of Object.keys(c.toolResults)) {
    const t = assembled.registry.get(fromText(name))
    if (t === undefined)
      throw new UserError(
        `${file}: case ${JSON.stringify(c.name)}: tool_results: no tool ${JSON.stringify(name)} in the request`,
      )
    if (t.kind === 'pack')
      throw new UserError(
        `${file}: case ${JSON.stringify(c.name)}: tool_results: ${JSON.stringify(name)} is a pack, and packs run`,
      )
  }
}

interface ChatOptions {
  signal: AbortSignal
  replay: Recording | null
  record: Exchange[] | null
  where: { case: string; round: number; request: number }
  baseURL: string
  apiKey: string
}

/**
 * The wire: the official `openai` client (loaded here only), retries off as the manager has none
 * (tools are not idempotent). Its fetch sends the manager's exact body bytes; --record keeps each
 * exchange, --replay answers from them and says when a request no longer matches.
 */
async function chatClient(o: ChatOptions): Promise<(body: GoString) => Promise<ChatOutcome>> {
  const { default: OpenAI, APIError } = await import('openai')
  let current: GoString = ''
  const fetchImpl = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const body = toText(current)
    const index = o.where.request++
    if (o.replay !== null) {
      const ex = o.replay.exchanges.find(
        (e) => e.case === o.where.case && e.round === o.where.round && e.request === index,
      )
      if (ex === undefined)
        throw new ReplayMismatch(
          `replay: request ${index + 1} of case ${JSON.stringify(o.where.case)} (round ${o.where.round + 1}) is not in the recording`,
        )
      if (ex.body !== body)
        throw new ReplayMismatch(
          `replay: request ${index + 1} of case ${JSON.stringify(o.where.case)} (round ${o.where.round + 1}) no longer matches the recording (${firstDifference(ex.body, body)})`,
        )
      return new Response(ex.response, { status: ex.status, headers: { 'content-type': 'application/json' } })
    }
    const res = await fetch(url, { ...init, body: Buffer.from(current, 'latin1') })
    if (o.record !== null) {
      const text = await res.clone().text()
      o.record.push({ ...o.where, request: index, body, status: res.status, response: text })
    }
    return res
  }
  const client = new OpenAI({
    apiKey: o.apiKey,
    baseURL: o.baseURL,
    maxRetries: 0,
    timeout: 120_000,
    organization: null,
    project: null,
    fetch: fetchImpl,
  })
  return async (body) => {
    current = body
    try {
      const res = await client.chat.completions.create(JSON.parse(toText(body)), { signal: o.signal })
      return { kind: 'reply', reply: toReply(res) }
    } catch (e) {
      if (e instanceof ReplayMismatch) return { kind: 'error', message: e.message }
      const cause = (e as { cause?: unknown }).cause
      if (cause instanceof ReplayMismatch) return { kind: 'error', message: cause.message }
      if (e instanceof APIError) return { kind: 'error', message: e.message, status: e.status }
      return { kind: 'error', message: (e as Error).message }
    }
  }
}

class ReplayMismatch extends Error {}

function firstDifference(a: string, b: string): string {
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  const around = (s: string) => JSON.stringify(s.slice(Math.max(0, i - 30), i + 30))
  return `first difference at character ${i}: recorded ${around(a)}, now ${around(b)}`
}

interface WireMessage {
  role?: string
  content?: string | null
  name?: string
  tool_call_id?: string
  tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[]
}

/** client.go fromOpenAIMessage over the first choice; usage as reported. */
function toReply(res: unknown): Reply {
  const r = res as {
    choices?: { message?: WireMessage }[]
    usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number }
  }
  const m = r.choices?.[0]?.message
  if (m === undefined) throw new Error('llm: empty choices in response')
  const t = (s: unknown) => fromText(typeof s === 'string' ? s : '')
  return {
    role: t(m.role),
    content: t(m.content),
    name: t(m.name),
    toolCallId: t(m.tool_call_id),
    toolCalls: (m.tool_calls ?? []).map((tc) => ({
      id: t(tc.id),
      name: t(tc.function?.name),
      args: t(tc.function?.arguments),
    })),
    usage: {
      prompt: r.usage?.prompt_tokens ?? 0,
      completion: r.usage?.completion_tokens ?? 0,
      total: r.usage?.total_tokens ?? 0,
    },
  }
}

function parsedArgs(args: GoString): unknown {
  try {
    return JSON.parse(toText(args))
  } catch {
    return null
  }
}

function scoreRun(
  file: string,
  c: EvalCase,
  round: number,
  calls: CallRecord[],
  answer: GoString,
  usage: { prompt: number; completion: number; total: number },
  iterations: number,
  capped: boolean,
  error: string | null,
  packs: readonly EvalPack[],
): EvalRun {
  const scored = calls.map((k) => ({ tool: toText(k.name), args: parsedArgs(k.args) }))
  const j = judge(c.expect, scored)
  const passed = error === null && j.passed
  return {
    file,
    name: c.name,
    round,
    expected: c.expect.tool,
    passed,
    decided: j.decided,
    calls: calls.map((k) => ({
      tool: toText(k.name),
      kind: k.kind,
      args: toText(k.args),
      pack: packs.some((p) => p.name === k.name),
      schema_errors: [] as string[],
    })),
    answer: toText(answer),
    iterations,
    capped,
    error,
    tokens: usage,
  }
}

/** The pack schema's complaints about each pack call's arguments (the checker `run` uses). */
async function checkArgsSchemas(runs: EvalRun[], packs: readonly EvalPack[]): Promise<void> {
  const todo = runs.flatMap((r) => r.calls.filter((c) => c.pack))
  if (todo.length === 0) return
  const { checkArgsBounded, namesProto } = await import('../../core/schema/bounded.js')
  for (const call of todo) {
    const schema = packs.find((p) => toText(p.name) === call.tool)?.schema
    if (schema === null || schema === undefined || namesProto(schema)) continue
    const args = parsedArgs(fromText(call.args))
    if (args === null) {
      call.schema_errors.push('args: not JSON')
      continue
    }
    const v = await checkArgsBounded(schema, args)
    if (v.kind === 'invalid')
      call.schema_errors.push(
        ...v.issues.map((i) => `args${i.pointer === '/' ? '' : i.pointer}: ${i.message}`),
      )
  }
}

function summarize(
  runs: EvalRun[],
  repeat: number,
  meta: { model: string; profile: Profile; seed: number; minRate: number | null; shadowed: string[] },
): EvalReport {
  const scores: RunScore[] = runs.map((r) => ({
    expected: r.expected,
    passed: r.passed,
    called: [...new Set(r.calls.map((c) => c.tool))],
    decided: r.decided,
  }))
  const byRound = Array.from({ length: repeat }, (_, i) =>
    runs.filter((r) => r.round === i).map((r) => r.passed),
  )
  const rate = rates(byRound)
  const passed = meta.minRate === null ? runs.every((r) => r.passed) : rate.rate >= meta.minRate
  const cases = [...new Map(runs.map((r) => [`${r.file}\0${r.name}`, r])).values()].map((first) => {
    const mine = runs.filter((r) => r.file === first.file && r.name === first.name)
    return {
      name: first.name,
      file: first.file,
      expected: first.expected,
      passed: mine.every((r) => r.passed),
      pass_rate: mine.filter((r) => r.passed).length / mine.length,
      runs: mine.map((r) => ({
        passed: r.passed,
        calls: r.calls.map(({ pack: _p, ...c }) => c),
        answer: r.answer,
        iterations: r.iterations,
        capped: r.capped,
        error: r.error,
        tokens: r.tokens,
      })),
      calls: first.calls.map(({ pack: _p, ...c }) => c),
    }
  })
  const tokens = runs.reduce(
    (a, r) => ({
      prompt: a.prompt + r.tokens.prompt,
      completion: a.completion + r.tokens.completion,
      total: a.total + r.tokens.total,
    }),
    { prompt: 0, completion: 0, total: 0 },
  )
  const document = {
    model: meta.model,
    profile: meta.profile,
    seed: meta.seed,
    repeat,
    shadowed: meta.shadowed,
    cases,
    summary: {
      runs: runs.length,
      passed: runs.filter((r) => r.passed).length,
      pass_rate: rate.rate,
      pass_rate_min: rate.min,
      pass_rate_max: rate.max,
      min_pass_rate: meta.minRate,
      per_tool: perTool(scores),
      confusion: confusion(scores),
      schema_failures: runs.reduce((n, r) => n + r.calls.filter((c) => c.schema_errors.length > 0).length, 0),
      tokens,
    },
  }
  return { passed, runs, document }
}
