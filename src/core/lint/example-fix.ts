/**
 * What a fixable rule's fixes do to its own bad examples, as the diff `lint --fix-dry-run` would
 * print (docs/rules.md shows it): each example tree written into a temp dir, checked with that
 * rule alone, its fixes computed (nothing written), the dir removed.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fromText } from '../go/gostring.js'
import { tempBase } from '../user-dirs.js'
import type { Context } from './context.js'
import { check } from './engine.js'
import { planFixes } from './fix.js'
import { ChangeGuard, fixFile } from './fix-files.js'
import type { Rule, RuleExample } from './types.js'
import { fileDiff } from './unified-diff.js'

/** Writes an example tree into `dir` (dir modes last, so a locked dir can still be filled). */
export function writeExample(dir: string, e: RuleExample): void {
  const modes: [string, number][] = []
  for (const [rel, f] of Object.entries(e.files)) {
    const p = join(dir, rel)
    if (typeof f !== 'string' && 'dir' in f) {
      mkdirSync(p, { recursive: true })
      if (f.mode !== undefined) modes.push([p, f.mode])
      continue
    }
    mkdirSync(dirname(p), { recursive: true })
    if (typeof f === 'string') writeFileSync(p, f)
    else if ('link' in f) symlinkSync(f.link, p)
    else if ('exec' in f) writeFileSync(p, f.exec, { mode: 0o755 })
    else {
      writeFileSync(p, f.file)
      chmodSync(p, f.mode)
    }
  }
  for (const [p, m] of modes) chmodSync(p, m)
}

/** For each bad example of the rule, the diff of its fixes (paths relative to the tree; '' when none). */
export async function exampleDiffs(rule: Rule<Context>): Promise<string[]> {
  const out: string[] = []
  for (const e of rule.examples.bad) {
    const dir = mkdtempSync(join(tempBase(), 'ongrid-skill-example-'))
    try {
      writeExample(dir, e)
      const r = await check({ paths: [fromText(join(dir, e.path ?? 'skills'))], rules: [rule], set: 'all' })
      // The tree was written just now by us: nothing in it is "changed during the run". (A start
      // of Date.now() judged a file written in the same millisecond as changed, now and then,
      // and its diff went missing from docs/rules.md.)
      const guard = new ChangeGuard(Number.POSITIVE_INFINITY)
      let diff = ''
      for (const plan of planFixes(r.files.flatMap((f) => f.findings)).values()) {
        const o = fixFile(plan, guard, true)
        if (o.kind === 'fixed' && o.fixed.length > 0)
          diff += fileDiff(fromText(relative(dir, o.file)), o.before, o.edits, o.mode)
      }
      out.push(diff)
    } finally {
      for (const [rel, f] of Object.entries(e.files))
        if (typeof f !== 'string' && 'dir' in f) chmodSync(join(dir, rel), 0o755)
      rmSync(dir, { recursive: true, force: true })
    }
  }
  return out
}

/** The diffs of every fixable rule's bad examples, by rule id. */
export async function fixDiffsOf(rules: readonly Rule<Context>[]): Promise<Map<string, string[]>> {
  const m = new Map<string, string[]>()
  for (const r of rules) if (r.fixable) m.set(r.id, await exampleDiffs(r))
  return m
}
