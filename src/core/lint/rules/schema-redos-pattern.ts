import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { toText } from '../../go/gostring.js'
import { packageRoot } from '../../package-root.js'
import { isLinearPattern } from '../../schema/linear-pattern.js'
import { pack } from './examples.js'
import { eachSchemaObject, effectiveMembers, type ManifestRule, member } from './util.js'

/** How long the checker may analyse one pattern before it is left alone. */
const CHECK_TIMEOUT_MS = 2000

interface Diagnostics {
  status: 'safe' | 'vulnerable' | 'unknown'
  complexity?: { type: 'exponential' | 'polynomial' | 'safe' | 'linear'; degree?: number }
  attack?: { pattern: string }
}
type CheckSync = (source: string, flags: string, params?: { timeout?: number }) => Diagnostics

let checker: CheckSync | undefined
/**
 * recheck (a maintained ReDoS checker), loaded when a schema first has a pattern: the build's
 * dist/vendor/recheck.cjs (its JavaScript only, what the npm package ships: recheck is a
 * devDependency), else the package in a tree that was not built.
 */
function checkSync(): CheckSync {
  if (checker === undefined) {
    const bundled = join(packageRoot(), 'dist', 'vendor', 'recheck.cjs')
    const recheck = createRequire(import.meta.url)(existsSync(bundled) ? bundled : 'recheck') as {
      checkSync: CheckSync
    }
    checker = (source, flags, params) => {
      // Its in-process analysis: no helper process, no worker, a bound of its own (`timeout`).
      const before = process.env.RECHECK_SYNC_BACKEND
      process.env.RECHECK_SYNC_BACKEND = 'pure'
      try {
        return recheck.checkSync(source, flags, params)
      } finally {
        if (before === undefined) delete process.env.RECHECK_SYNC_BACKEND
        else process.env.RECHECK_SYNC_BACKEND = before
      }
    }
  }
  return checker
}

/**
 * ajv compiles schema patterns with the `u` flag. A pattern the pre-filter proves linear is safe
 * without loading recheck (about 0.2 s and 50 MB at the first pattern); the rest go to recheck.
 */
export function redosVerdict(pattern: string, prefilter = true): Diagnostics {
  if (prefilter && isLinearPattern(pattern)) return { status: 'safe' }
  try {
    return checkSync()(pattern, 'u', { timeout: CHECK_TIMEOUT_MS })
  } catch {
    return { status: 'unknown' }
  }
}

const rule: ManifestRule = {
  id: 'schema/redos-pattern',
  severity: 'warn',
  category: 'best-practice',
  kind: 'manifest',
  docs: 'A `pattern` (or a `patternProperties` key) backtracks catastrophically on some strings (`^(a+)+$`): whoever validates the args with it — the LLM bridge, a gateway, `run` — can be stalled by one short value. Checked with recheck.',
  examples: {
    bad: [
      {
        files: pack({
          schema: { type: 'object', properties: { host: { type: 'string', pattern: '^(a+)+$' } } },
        }),
      },
    ],
    good: [
      {
        files: pack({
          schema: { type: 'object', properties: { host: { type: 'string', pattern: '^a+$' } } },
        }),
      },
    ],
  },
  check(ctx, report) {
    const tree = ctx.schema()?.tree
    if (!tree) return
    const flag = (source: string, at: number, where: string) => {
      const v = redosVerdict(source)
      if (v.status !== 'vulnerable') return
      const kind =
        v.complexity?.type === 'polynomial'
          ? `polynomial (degree ${v.complexity.degree ?? '?'})`
          : (v.complexity?.type ?? 'super-linear')
      report({
        at,
        message: `${where}: the pattern ${JSON.stringify(source)} backtracks catastrophically (${kind} time)${v.attack ? `, e.g. on ${v.attack.pattern}` : ''}`,
        hint: 'rewrite it without nested or overlapping repetition (`^a+$` instead of `^(a+)+$`), or bound the string with maxLength',
      })
    }
    eachSchemaObject(tree, (o, pointer) => {
      const p = member(o, 'pattern')
      if (p && p.value.kind === 'string') flag(toText(p.value.value), p.keyStart, `schema${pointer}/pattern`)
      const pp = member(o, 'patternProperties')
      if (pp && pp.value.kind === 'object') {
        for (const m of effectiveMembers(pp.value)) {
          flag(toText(m.key), m.keyStart, `schema${pointer}/patternProperties`)
        }
      }
    })
  },
}
export default rule
