import { compileSchema, eachSubschema, issues, type SchemaIssue, selectDraft } from './compile.js'
import { everyPattern, isLinearPattern } from './linear-pattern.js'
import { instanceValid, provenValid } from './simple.js'

/** How long the schema's regular expressions may take over one set of args. */
export const PATTERN_BUDGET_MS = 1000

/** The args pre-check's verdict. */
export type ArgsVerdict =
  | { kind: 'valid' }
  | { kind: 'invalid'; issues: SchemaIssue[] }
  | { kind: 'uncompiled'; error: string }
  /** The check ran out of time: a pattern backtracking catastrophically (`^(a+)+$`). */
  | { kind: 'overtime'; ms: number }

/** Does the schema hold a regular expression anywhere (`pattern`, `patternProperties`)? Iterative: any depth. */
export function hasPatterns(schema: unknown): boolean {
  const stack: unknown[] = [schema]
  for (let v = stack.pop(); stack.length > 0 || v !== undefined; v = stack.pop()) {
    if (v === null || typeof v !== 'object') continue
    if (Array.isArray(v)) {
      for (const x of v) stack.push(x)
      continue
    }
    for (const [k, x] of Object.entries(v)) {
      if (k === 'pattern' || k === 'patternProperties') return true
      stack.push(x)
    }
  }
  return false
}

/**
 * Does the schema hold a regular expression that is not proved to backtrack at most linearly
 * (linear-pattern.ts)? Only such a pattern can run away. Iterative: any depth.
 */
export function hasUnprovenPatterns(schema: unknown): boolean {
  return !everyPattern(schema, isLinearPattern)
}

/**
 * Does a subschema name a property `__proto__` (in `properties` or `required`)? ajv leaves such
 * a property out of the code it generates (its guard against prototype pollution), so it would
 * call the key additional, or never check its value: its verdict on such args means nothing.
 */
export function namesProto(schema: unknown): boolean {
  let found = false
  eachSubschema(schema, (s) => {
    const props = s.properties
    if (props !== null && typeof props === 'object' && Object.hasOwn(props, '__proto__')) found = true
    if (Array.isArray(s.required) && s.required.includes('__proto__')) found = true
  })
  return found
}

/**
 * Checks args against a schema with a bound on time. V8's regular expressions backtrack, so a
 * schema's `pattern` can take for ever on a short string; a schema with patterns is checked on
 * a worker thread, which is ended once validation has taken PATTERN_BUDGET_MS (V8 interrupts
 * a running regular expression). A schema whose patterns are all proved linear (or that has
 * none) cannot run away and is checked here, without the worker's start and second ajv.
 */
export async function checkArgsBounded(
  schema: unknown,
  value: unknown,
  budgetMs = PATTERN_BUDGET_MS,
): Promise<ArgsVerdict> {
  return (await checkEachBounded(schema, [value], budgetMs))[0]
}

/**
 * checkArgsBounded over several values (a pack's test cases), each with its own budget: one
 * worker checks them in turn; one that runs out of time is `overtime`, and a new worker goes on
 * with the values after it.
 */
export async function checkEachBounded(
  schema: unknown,
  values: readonly unknown[],
  budgetMs = PATTERN_BUDGET_MS,
): Promise<ArgsVerdict[]> {
  if (allValidWithoutAjv(schema, values)) return values.map((): ArgsVerdict => ({ kind: 'valid' }))
  if (!hasUnprovenPatterns(schema)) {
    const compiled = await compileSchema(schema, { strict: false })
    return values.map((value): ArgsVerdict => {
      if (!compiled.ok) return { kind: 'uncompiled', error: compiled.error }
      if (compiled.schema.validate(value)) return { kind: 'valid' }
      return { kind: 'invalid', issues: issues(compiled.schema.validate.errors, schema, value) }
    })
  }
  const { Worker } = await import('node:worker_threads')
  const out: ArgsVerdict[] = []
  while (out.length < values.length) {
    const rest = values.slice(out.length)
    const worker = new Worker(new URL('./check-worker.js', import.meta.url), {
      workerData: { schema, values: rest },
    })
    const got = await new Promise<ArgsVerdict[]>((resolve) => {
      const verdicts: ArgsVerdict[] = []
      let timer: NodeJS.Timeout | undefined
      const done = (last: ArgsVerdict | null) => {
        clearTimeout(timer)
        worker.removeAllListeners()
        void worker.terminate()
        if (last) verdicts.push(last)
        // A worker that could not check at all: the same for every value left.
        if (last?.kind === 'uncompiled') while (verdicts.length < rest.length) verdicts.push(last)
        resolve(verdicts)
      }
      // The budget runs for each value from the moment its check starts.
      const arm = () => {
        clearTimeout(timer)
        timer = setTimeout(() => done({ kind: 'overtime', ms: budgetMs }), budgetMs)
      }
      worker.on('message', (m: WorkerMessage) => {
        if (m.kind === 'compiled') arm()
        else if (m.kind === 'uncompiled') done(m)
        else {
          verdicts.push(m)
          if (verdicts.length === rest.length) done(null)
          else arm()
        }
      })
      worker.on('error', (e) => done({ kind: 'uncompiled', error: e.message }))
      worker.on('exit', () => done({ kind: 'uncompiled', error: 'the check ended early' }))
    })
    out.push(...got)
  }
  return out
}

/**
 * True when the built-in checker (simple.ts) vouches for the schema and finds every value valid,
 * with no pattern that could run away: ajv would say `valid` to each, and need not be loaded
 * (about 80 ms and 20 MB). Anything else — an invalid value, whose messages are ajv's, or a
 * schema the checker does not vouch for — goes to ajv.
 */
function allValidWithoutAjv(schema: unknown, values: readonly unknown[]): boolean {
  if (hasUnprovenPatterns(schema)) return false
  const sel = selectDraft(schema)
  if ('unsupported' in sel || !provenValid(schema, sel.draft)) return false
  return values.every((v) => instanceValid(schema, v) === true)
}

export type WorkerMessage = { kind: 'compiled' } | Exclude<ArgsVerdict, { kind: 'overtime' }>
