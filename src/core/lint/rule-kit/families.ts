/**
 * Rules that are the same check over different data, built by one factory per family: the
 * executor's entry problems, the bridge's schema decode failures, the SKILL.md loader's errors
 * and warnings, the case-file problems.
 */
import { toText } from '../../go/gostring.js'
import type { NativeStage, NativeWarning } from '../../native/skill-md.js'
import type { CaseProblem } from '../../testcases/cases.js'
import { invalidSchemaMessage, SCHEMA_WARN_MSG } from '../../tool-def.js'
import type { ManifestContext, NativeContext } from '../context.js'
import type { EntryProblem } from '../entry.js'
import type { Fix, Fixable, FixSafety, RuleExamples, Severity } from '../types.js'
import { casesOf, type LoadedCases } from './tests-util.js'
import type { ManifestRule, NativeRule } from './util.js'

interface Meta {
  id: string
  severity: Severity
  docs: string
  why?: string
  examples: RuleExamples
  fixSafety?: FixSafety
}

/** The rule's own fields of a factory's data (not the data it checks with). */
function own({ id, severity, docs, why, examples, fixSafety }: Meta): Meta {
  return { id, severity, docs, ...(why ? { why } : {}), examples, ...(fixSafety ? { fixSafety } : {}) }
}

/** A rule for one kind of the executor's first entry problem, at the `entry` key, in its words. */
export function entryProblemRule<K extends EntryProblem['kind']>(
  meta: Meta & {
    problem: K
    hint?: (p: Extract<EntryProblem, { kind: K }>) => string
    /** The fix of the entry file (its fixer's kind, and the fixer: null when not certain). */
    fix?: [Fixable, (ctx: ManifestContext, p: Extract<EntryProblem, { kind: K }>) => Fix | null]
  },
): ManifestRule {
  return {
    ...own(meta),
    category: 'manager',
    kind: 'manifest',
    ...(meta.fix ? { fixable: meta.fix[0] } : {}),
    check(ctx, report) {
      const p = ctx.entry()
      if (p?.kind !== meta.problem) return
      const hint = meta.hint?.(p as Extract<EntryProblem, { kind: K }>)
      const fix = meta.fix?.[1](ctx, p as Extract<EntryProblem, { kind: K }>) ?? null
      report({
        at: ctx.keyAt('entry'),
        message: toText(p.message),
        ...(hint ? { hint } : {}),
        ...(fix ? { fix } : {}),
      })
    },
  }
}

/**
 * A rule for one way the LLM bridge fails to decode the schema (it then logs a WARN and leaves the
 * skill out of the LLM's tools), in the bridge's words, at the value that failed.
 */
export function bridgeDecodeRule(
  meta: Meta & { failure: 'not-object' | 'number-range'; advice?: string },
): ManifestRule {
  const hint = `the manager logs this as WARN "${SCHEMA_WARN_MSG}" and leaves the skill out of the LLM’s tools${meta.advice ? `; ${meta.advice}` : ''}.`
  return {
    ...own(meta),
    category: 'manager',
    kind: 'manifest',
    check(ctx, report) {
      const s = ctx.schema()
      if (!s?.decode || s.decode.ok || s.decode.kind !== meta.failure) return
      const key = ctx.parsed?.manifest.name ?? ''
      report({ at: s.decode.at, message: toText(invalidSchemaMessage(key, s.decode.err)), hint })
    },
  }
}

/**
 * A rule for the SKILL.md loader's error at one stage, at its line:column. `text`: the message is
 * already text (ours), not the loader's bytes.
 */
export function nativeErrorRule(
  meta: Meta & { stage: NativeStage; text?: boolean; hint?: (ctx: NativeContext) => string | undefined },
): NativeRule {
  return {
    ...own(meta),
    category: 'manager',
    kind: 'native',
    check(ctx, report) {
      const e = ctx.parse?.error
      if (e?.stage !== meta.stage) return
      const hint = meta.hint?.(ctx)
      report({
        at: null,
        line: e.line,
        column: e.column,
        message: meta.text ? e.message : toText(e.message),
        ...(hint ? { hint } : {}),
      })
    },
  }
}

/** A rule for one of the SKILL.md loader's warnings (LoadWarning), in its words. */
export function nativeWarningRule(
  meta: Meta & { code: NativeWarning['code']; fix?: (ctx: NativeContext, w: NativeWarning) => Fix | null },
): NativeRule {
  return {
    ...own(meta),
    category: 'manager',
    kind: 'native',
    ...(meta.fix ? { fixable: 'text' as const } : {}),
    check(ctx, report) {
      for (const w of ctx.parse?.warnings ?? []) {
        if (w.code !== meta.code) continue
        const fix = meta.fix?.(ctx, w) ?? null
        report({
          at: null,
          line: w.line,
          column: w.column,
          message: toText(w.reason),
          ...(fix ? { fix } : {}),
        })
      }
    },
  }
}

/** A rule for one kind of problem in a pack's case files, reported in the case file at its pointer. */
export function caseProblemRule(
  meta: Meta & { problem: CaseProblem['kind']; fix?: (c: LoadedCases, p: CaseProblem) => Fix | null },
): ManifestRule {
  return {
    ...own(meta),
    category: 'tests',
    kind: 'manifest',
    ...(meta.fix ? { fixable: 'text' as const } : {}),
    check(ctx, report) {
      for (const c of casesOf(ctx)) {
        for (const p of c.file.problems) {
          if (p.kind !== meta.problem) continue
          const fix = meta.fix?.(c, p) ?? null
          report({
            at: null,
            file: c.file.file,
            ...c.position(p.pointer),
            message: `${p.pointer || '(file)'}: ${p.message}`,
            ...(fix ? { fix } : {}),
          })
        }
      }
    },
  }
}
