import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { REPO } from '../helpers/cli.js'

// Text from files, packs, skills and servers reaches a terminal only through ui/terminal.ts (or a
// writer built on it). This finds every direct write to stdout or stderr in the files below and
// looks at what each writes: a literal, a number, a value passed through an escaping function,
// or JSON (which escapes control characters) passes; anything else must be listed in REVIEWED
// with why it is safe. A new write of a value that is not escaped fails here until it is escaped
// or reviewed.

const FILES = [
  'src/cli/actions/lint.ts',
  'src/cli/actions/lint-fix.ts',
  'src/cli/actions/lint-baseline.ts',
  'src/cli/actions/load-dirs.ts',
  'src/cli/actions/marketplace.ts',
  'src/cli/actions/run.ts',
  'src/cli/actions/test.ts',
  'src/cli/actions/test-watch.ts',
]

const ours = 'our words and counts only'
const rendered = 'a format of ui/ (ui/lint/, ui/test/), which escapes what it shows from files'
const json = 'a JSON document: control characters are escaped'

/** `file: value` → why the value is safe on a terminal. */
const REVIEWED: Record<string, string> = {
  "src/cli/actions/lint.ts: tooManyWarnings && format === 'stylish' ? `${text}ongrid-skill found too many warnings (maximum: ${opts.maxWarnings})\\n` : text":
    rendered,
  "src/cli/actions/lint.ts: (await import('../../ui/lint/json.js')).rulesJson(rules)": json,
  "src/cli/actions/lint.ts: (await import('../../ui/lint/list-rules.js')).listRules(rules)":
    'the rule registry: ours',
  "src/cli/actions/lint.ts: errors.length === 0 ? 'validate after the fixes: no errors\\n' : `validate after the fixes: ${errors.length} error${errors.length === 1 ? '' : 's'} (run validate to see them)\\n`":
    ours,
  'src/cli/actions/lint.ts: where': 'terminalLineText, assigned above',
  "src/cli/actions/run.ts: lines.join('\\n')":
    'ui/trace.ts traceLines: each effect and finding through terminalLineText',
  'src/cli/actions/lint.ts: toBuffer(`${compact ? def.json : indentJSON(def.json)}\\n`)':
    "the bridge's json.Marshal bytes: control characters escaped",
  'src/cli/actions/lint-fix.ts: signal': 'a signal name',
  "src/cli/actions/lint-fix.ts: summary('fixed', progress)": ours,
  'src/cli/actions/lint-fix.ts: notApplied': ours,
  "src/cli/actions/lint-fix.ts: summary(opts.dryRun ? 'would fix' : 'fixed', progress)": ours,
  "src/cli/actions/load-dirs.ts: hints.map((h) => ` hint: ${terminalLineText(h, tty)}\\n`).join('')":
    'terminalLineText',
  'src/cli/actions/load-dirs.ts: loadSummary(result.count, counts)': ours,
  'src/cli/actions/load-dirs.ts: boot': 'terminalLineText, assigned above',
  'src/cli/actions/marketplace.ts: text': `${rendered}; or ${json}`,
  'src/cli/actions/marketplace.ts: fingerprint': 'hex digits',
  'src/cli/actions/marketplace.ts: pub': 'a PEM this run made',
  'src/cli/actions/marketplace.ts: out': 'built from l(), terminalLineText, above',
  'src/cli/actions/marketplace.ts: l(out)': 'l is terminalLineText',
  'src/cli/actions/marketplace.ts: l(id)': 'l is terminalLineText',
  'src/cli/actions/marketplace.ts: result.files': 'a count',
  "src/cli/actions/marketplace.ts: result.files === 1 ? '' : 's'": ours,
  'src/cli/actions/marketplace.ts: bytes.length': 'a count',
  'src/cli/actions/marketplace.ts: sha': 'hex digits',
  "src/cli/actions/marketplace.ts: skipped.length > 0 ? `left out: ${skipped.map(l).join(', ')}\\n` : ''":
    'l is terminalLineText',
  'src/cli/actions/marketplace.ts: sig.state': 'a state name of ours',
  "src/cli/actions/run.ts: issues.map((l) => `error: ${terminalLineText(l, process.stderr.isTTY === true)}`).join('\\n')":
    'terminalLineText',
  "src/cli/actions/run.ts: unread ? `hint: ${STDIN_UNREAD}\\n` : ''": ours,
  'src/cli/actions/run.ts: refusal': "the gate's fixed texts (core/executor/gate.ts)",
  'src/cli/actions/run.ts: runWarning.envAltered(name)': 'a name from the environment list of ours',
  'src/cli/actions/run.ts: runWarning.entryAltered(skill.entry, process.stderr.isTTY === true)':
    'ui/run.ts escapes it for the tty given',
  'src/cli/actions/run.ts: runWarning.notRecorded(audit.path, audit.reason, process.stderr.isTTY === true)':
    'ui/run.ts escapes it for the tty given',
  'src/cli/actions/run.ts: toBuffer(`note: ${terminalLine(fifoBlocks(fifo), process.stderr.isTTY === true)}\\n`)':
    'terminalLine',
  'src/cli/actions/run.ts: toBuffer(`error: ${terminalLine(r.line, process.stderr.isTTY === true)}\\n`)':
    'terminalLine',
  'src/cli/actions/test.ts: s': rendered,
  'src/cli/actions/test.ts: leftOutNote(leftOut)': 'dir names of ours (node_modules, .git…) and counts',
  'src/cli/actions/test-watch.ts: s': 'ours, or terminalLineText at each call',
}

const WRITE = /\b(?:process\.(?:stdout|stderr)\.write|writeStdout)\(/g

/** The text of the call's arguments from `at` (just past its `(`), to the matching `)`. */
function argumentsAt(src: string, at: number): string {
  const stack: ('code' | 'template')[] = ['code']
  const braces: number[] = [0]
  let depth = 1
  for (let i = at; i < src.length; i++) {
    const c = src[i]
    const top = stack[stack.length - 1]
    if (top === 'template') {
      if (c === '\\') i++
      else if (c === '`') stack.pop()
      else if (c === '$' && src[i + 1] === '{') {
        stack.push('code')
        braces.push(0)
        i++
      }
      continue
    }
    if (c === "'" || c === '"') {
      for (i++; i < src.length && src[i] !== c; i++) if (src[i] === '\\') i++
    } else if (c === '`') stack.push('template')
    else if (c === '{') braces[braces.length - 1]++
    else if (c === '}') {
      if (braces[braces.length - 1] === 0 && stack.length > 1) {
        stack.pop()
        braces.pop()
      } else braces[braces.length - 1]--
    } else if (c === '(' && stack.length === 1) depth++
    else if (c === ')' && stack.length === 1 && --depth === 0) return src.slice(at, i)
  }
  throw new Error(`no end to the call at ${at}`)
}

/** The values an argument writes: the template's interpolations, or the whole expression. */
function valuesOf(arg: string): string[] {
  const a = arg.trim().replace(/,$/, '').trim()
  if (/^'[^']*'$/.test(a) || /^"[^"]*"$/.test(a)) return []
  if (a.startsWith('`') && a.endsWith('`')) {
    const out: string[] = []
    const re = /\$\{/g
    for (let m = re.exec(a); m !== null; m = re.exec(a)) {
      let depth = 1
      let i = m.index + 2
      for (; i < a.length && depth > 0; i++) {
        if (a[i] === '{') depth++
        else if (a[i] === '}') depth--
      }
      out.push(a.slice(m.index + 2, i - 1).trim())
      re.lastIndex = i
    }
    return out
  }
  return [a]
}

const ESCAPED = [
  /^(?:toBuffer\()?terminal(?:Line|LineText|Text|Bytes)\(/, // ui/terminal.ts
  /^(?:JSON\.)?stringify\(|^JSON\.stringify\(/, // JSON escapes control characters
  /^plural\(/, // a count and a word of ours
]

function unreviewed(): string[] {
  const out: string[] = []
  for (const file of FILES) {
    const src = readFileSync(join(REPO, file), 'utf8')
    for (const m of src.matchAll(WRITE)) {
      const arg = argumentsAt(src, (m.index ?? 0) + m[0].length)
        .replace(/\s+/g, ' ')
        .replace(/\( /g, '(')
        .replace(/,? \)/g, ')')
      for (const v of valuesOf(arg)) {
        if (ESCAPED.some((re) => re.test(v))) continue
        const key = `${file}: ${v}`
        if (REVIEWED[key] === undefined) out.push(key)
      }
    }
  }
  return out
}

describe('what reaches a terminal', () => {
  test('every value written to stdout or stderr is escaped, or reviewed as safe', () => {
    assert.deepEqual(unreviewed(), [])
  })
})
