/**
 * Tests for one lint rule, in the manner of ESLint's RuleTester: valid trees (the rule reports
 * nothing) and invalid trees with the rule's WHOLE finding list (id, severity, file, line:column,
 * message; the hint when given). Each tree is written into a fresh temp dir; only the rule
 * under test runs.
 */
import assert from 'node:assert/strict'
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { fromText } from '../../../src/core/go/gostring.js'
import type { Context } from '../../../src/core/lint/context.js'
import { check } from '../../../src/core/lint/engine.js'
import { applyEdits, planFixes } from '../../../src/core/lint/fix.js'
import type { ExampleFile, Rule, RuleExample, Severity } from '../../../src/core/lint/types.js'
import { makeTree, type Node, tempRoot } from '../../helpers/tree.js'

export interface Expected {
  message: string | RegExp
  line: number
  column: number
  /** Relative to the case's dir; default: the case's only skill.json or SKILL.md (or its `path`). */
  file?: string
  /** Compared only when given. */
  hint?: string | RegExp
  ruleId?: string
  severity?: Severity
}

export interface TreeCase {
  name?: string
  /** Files under the case's dir. `$R` in expected texts stands for that dir. */
  files: Readonly<Record<string, Node | ExampleFile>>
  /** The PATH checked, relative to the dir (default `skills`). */
  path?: string
  /** Run after the files are written (a FIFO, a mode, a file too large to write out). */
  setup?: (dir: string) => void
  /** A reason to skip the case here, or undefined. */
  skip?: () => string | undefined
}

export interface InvalidCase extends TreeCase {
  findings: Expected[]
  /**
   * For a fixable rule: each file the fixes change (relative to the case's dir) → its text after
   * every fix of the rule is applied (passes until none is left), or `{ mode }` its permission
   * bits. Checked, with: no finding left carries a fix, and fixing again changes nothing.
   */
  output?: Readonly<Record<string, string | { mode: number }>>
}

export interface Actual {
  ruleId: string
  severity: Severity
  file: string
  line: number
  column: number
  message: string
  hint?: string
}

const asRule = (r: unknown) => r as Rule<Context>

/** Writes a case's files (dir modes after everything, so a locked dir can still be filled). */
export function writeCase(dir: string, c: TreeCase | RuleExample): void {
  makeTree(dir, c.files as Record<string, Node>)
  for (const [rel, f] of Object.entries(c.files)) {
    if (typeof f === 'object' && 'dir' in f && 'mode' in f && f.mode !== undefined)
      chmodSync(`${dir}/${rel}`, f.mode)
  }
  if ('setup' in c) c.setup?.(dir)
}

/** Gives every dir of a case back its permissions, so it can be removed. */
export function unlockCase(dir: string, c: TreeCase | RuleExample): void {
  for (const [rel, f] of Object.entries(c.files)) {
    if (typeof f === 'object' && 'dir' in f) chmodSync(`${dir}/${rel}`, 0o755)
  }
}

/** What the rule alone reports on a case written into `dir`, paths relative to `dir`. */
export async function runRule(rule: unknown, dir: string, path = 'skills'): Promise<Actual[]> {
  const r = await check({ paths: [`${dir}/${path}`].map(fromText), rules: [asRule(rule)], set: 'all' })
  return r.files.flatMap((f) =>
    f.findings.map((x) => ({
      ruleId: x.ruleId,
      severity: x.severity,
      file: x.file.startsWith(`${dir}/`) ? x.file.slice(dir.length + 1) : x.file,
      line: x.line,
      column: x.column,
      message: x.message,
      ...(x.hint === undefined ? {} : { hint: x.hint }),
    })),
  )
}

function defaultFile(c: TreeCase): string | undefined {
  if (c.path && /\.(json|md)$/i.test(c.path)) return c.path
  const targets = Object.keys(c.files).filter((p) => /(^|\/)(skill\.json|SKILL\.md)$/.test(p))
  return targets.length === 1 ? targets[0] : undefined
}

/** The expected list in the shape of the actual one: RegExps that match take the actual text. */
function expectedList(rule: Rule<Context>, c: InvalidCase, actual: Actual[], dir: string): Actual[] {
  const sub = (s: string) => s.replaceAll('$R', dir)
  return c.findings.map((e, i) => {
    const a = actual[i]
    const text = (want: string | RegExp, got: string | undefined) =>
      typeof want === 'string' ? sub(want) : got !== undefined && want.test(got) ? got : `(matching ${want})`
    const x: Actual = {
      ruleId: e.ruleId ?? rule.id,
      severity: e.severity ?? rule.severity,
      file: e.file ?? defaultFile(c) ?? '(give file)',
      line: e.line,
      column: e.column,
      message: text(e.message, a?.message),
    }
    if (e.hint !== undefined) x.hint = text(e.hint, a?.hint)
    return x
  })
}

/**
 * Applies the rule's fixes to the case in `dir` until none is left (at most 10 passes): text
 * edits through applyEdits, modes with chmod. Returns the number of passes that changed a file.
 */
export async function fixTree(rule: unknown, dir: string, path = 'skills'): Promise<number> {
  for (let pass = 0; pass < 10; pass++) {
    const r = await check({ paths: [`${dir}/${path}`].map(fromText), rules: [asRule(rule)], set: 'all' })
    const plans = planFixes(r.files.flatMap((f) => f.findings))
    if (plans.size === 0) return pass
    for (const p of plans.values()) {
      if (p.edits.length > 0) {
        const before = readFileSync(p.file, 'latin1')
        writeFileSync(p.file, applyEdits(before, p.edits).text, 'latin1')
      }
      if (p.mode !== undefined) chmodSync(p.file, p.mode)
    }
  }
  throw new Error('fixes still offered after 10 passes')
}

function outputOf(dir: string, rel: string, want: string | { mode: number }): string | { mode: number } {
  return typeof want === 'string'
    ? readFileSync(`${dir}/${rel}`, 'utf8')
    : { mode: statSync(`${dir}/${rel}`).mode & 0o7777 }
}

/** Registers the tests of one rule: `describe(rule.id)`, one test per case. */
export function ruleTester(rule: unknown, cases: { valid: TreeCase[]; invalid: InvalidCase[] }): void {
  const r = asRule(rule)
  describe(r.id, () => {
    let R = ''
    let cleanup = () => {}
    let n = 0
    before(() => {
      ;({ root: R, cleanup } = tempRoot())
    })
    after(() => cleanup())

    const run = async (c: TreeCase) => {
      const dir = `${R}/case${n++}`
      writeCase(dir, c)
      try {
        return { dir, actual: await runRule(r, dir, c.path) }
      } finally {
        unlockCase(dir, c)
      }
    }

    for (const [i, c] of cases.valid.entries()) {
      test(`valid: ${c.name ?? `#${i + 1}`}`, async (t) => {
        const why = c.skip?.()
        if (why) return t.skip(why)
        const { actual } = await run(c)
        assert.deepEqual(actual, [])
      })
    }
    for (const [i, c] of cases.invalid.entries()) {
      test(`invalid: ${c.name ?? `#${i + 1}`}`, async (t) => {
        const why = c.skip?.()
        if (why) return t.skip(why)
        assert.ok(c.findings.length > 0, 'an invalid case lists what the rule reports')
        const { dir, actual } = await run(c)
        const compared = actual.map((a, k) =>
          c.findings[k]?.hint === undefined ? { ...a, hint: undefined } : a,
        )
        const clean = (xs: Actual[]) => xs.map((x) => (x.hint === undefined ? { ...x, hint: undefined } : x))
        assert.deepEqual(clean(compared), clean(expectedList(r, c, actual, dir)))
      })
      if (!r.fixable) continue
      test(`fix: ${c.name ?? `#${i + 1}`}`, async (t) => {
        const why = c.skip?.()
        if (why) return t.skip(why)
        const dir = `${R}/case${n++}`
        writeCase(dir, c)
        try {
          const passes = await fixTree(r, dir, c.path)
          const want = c.output ?? {}
          if (passes > 0) assert.ok(c.output, 'a case the rule fixes gives its output')
          const got = Object.fromEntries(Object.entries(want).map(([rel, w]) => [rel, outputOf(dir, rel, w)]))
          assert.deepEqual(got, want)
          // Idempotence: the fixed tree offers no fix, and fixing it again changes nothing.
          const again = await fixTree(r, dir, c.path)
          assert.equal(again, 0)
          assert.deepEqual(
            Object.fromEntries(Object.entries(want).map(([rel, w]) => [rel, outputOf(dir, rel, w)])),
            want,
          )
        } finally {
          unlockCase(dir, c)
        }
      })
    }
  })
}

/** A skip reason when running as root (it reads and walks any dir). */
export const asRoot = (): string | undefined => (process.getuid?.() === 0 ? 'root reads any dir' : undefined)
