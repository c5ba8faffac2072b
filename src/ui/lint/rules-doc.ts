import { type GoString, toText } from '../../core/go/gostring.js'
import type { ExampleFile, RuleExample, RuleMeta } from '../../core/lint/types.js'
import { ruleAnchor } from './rule-link.js'

const SEVERITY = { error: 'error', warn: 'warn', info: 'info' } as const

/** A fence that no line of the text can close. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/^`{3,}/gm)].map((m) => m[0].length))
  return '`'.repeat(longest + 1)
}

const LANG: Record<string, string> = { json: 'json', md: 'markdown', sh: 'sh', yaml: 'yaml', yml: 'yaml' }

/** One file of an example: its path, then its text in a fence (or what it is, when not a regular file). */
function exampleFile(path: string, f: ExampleFile): string {
  if (typeof f !== 'string' && 'link' in f) return `\`${path}\`: a symlink to \`${f.link}\``
  if (typeof f !== 'string' && 'dir' in f)
    return `\`${path}/\`: a dir${f.mode === undefined ? '' : `, mode ${f.mode.toString(8).padStart(3, '0')}`}`
  const text = typeof f === 'string' ? f : 'file' in f ? f.file : f.exec
  const shown = text.replace(/^\ufeff/, '')
  const notes = [
    ...(typeof f === 'string'
      ? []
      : 'file' in f
        ? [`mode ${f.mode.toString(8).padStart(3, '0')}`]
        : ['executable']),
    ...(shown !== text ? ['starts with a UTF-8 byte order mark'] : []),
  ]
  const f3 = fence(shown)
  const lang = LANG[/\.([a-z]+)$/.exec(path)?.[1] ?? ''] ?? ''
  const body = shown.endsWith('\n') || shown === '' ? shown : `${shown}\n`
  return `\`${path}\`${notes.length > 0 ? ` (${notes.join('; ')})` : ''}:\n\n${f3}${lang}\n${body}${f3}`
}

/** An example's files; those the same as in `shown` are named, not repeated. */
function example(e: RuleExample, shown?: RuleExample): string {
  const same = (p: string) =>
    shown !== undefined && p in shown.files && JSON.stringify(shown.files[p]) === JSON.stringify(e.files[p])
  const paths = Object.keys(e.files)
  const files = paths.filter((p) => !same(p)).map((p) => exampleFile(p, e.files[p]))
  const kept = paths.filter(same).map((p) => `\`${p}\``)
  return [
    ...files,
    ...(kept.length > 0 ? [`${kept.join(', ')}: as above.`] : []),
    ...(e.path ? [`Checked: \`${e.path}\``] : []),
  ].join('\n\n')
}

/** A fix's diff as the docs show it (text; a CR and a BOM made visible). */
function diffBlock(diff: GoString): string {
  const text = toText(diff)
  const shown = text.replace(/\r/g, '␍').replace(/\ufeff/g, '<BOM>')
  const notes = [
    ...(shown.includes('␍') ? ['␍ is a CR'] : []),
    ...(shown.includes('<BOM>') ? ['<BOM> is the byte order mark'] : []),
  ]
  const f3 = fence(shown)
  return `**Fixed by \`lint --fix\`**${notes.length > 0 ? ` (${notes.join('; ')})` : ''}:\n\n${f3}diff\n${shown}${f3}\n`
}

/** Whether `lint --fix` fixes the rule's findings, or suggests fixes. */
function fixNote(r: RuleMeta): string {
  const safety = r.fixSafety
    ? ` The fix is ${r.fixSafety.safe ? 'always safe' : 'not always safe'}: ${r.fixSafety.because}`
    : ''
  if (r.fixable === 'mode') return `\nFixable: \`lint --fix\` sets the file's mode.${safety}\n`
  if (r.fixable) return `\nFixable: \`lint --fix\` edits the file.${safety}\n`
  if (r.hasSuggestions)
    return '\nSuggestions: `--format json` offers an edit, never applied by `lint --fix` (it changes what the manager does).\n'
  return ''
}

/** The rule's example trees, when it has them; under each bad one, the diff of its fixes when given. */
function examples(r: RuleMeta, diffs: readonly GoString[] = []): string {
  const x = r.examples
  if (!x) return ''
  const bad = x.bad.map(
    (e, i) => `**Reported:**\n\n${example(e)}\n${diffs[i] ? `\n${diffBlock(diffs[i])}` : ''}`,
  )
  const noBad = x.noBad ? [`No tree on disk shows it: ${x.noBad}\n`] : []
  const good = x.good.map((e) => `**Not reported:**\n\n${example(e, x.bad[0])}\n`)
  return `\n${[...bad, ...noBad, ...good].join('\n')}`
}

/** docs/rules.md, generated from the registry (scripts/gen-rules-doc.mjs writes it; a test compares). */
export function rulesDoc(
  rules: readonly RuleMeta[],
  diffs: ReadonlyMap<string, readonly GoString[]> = new Map(),
): string {
  const manager = rules.filter((r) => r.category === 'manager')
  const practice = rules.filter((r) => r.category === 'best-practice')
  const tests = rules.filter((r) => r.category === 'tests')
  const applies = (r: RuleMeta) =>
    r.category === 'tests'
      ? 'tests/*.json'
      : r.kind === 'any'
        ? 'skill.json, SKILL.md'
        : r.kind === 'manifest'
          ? 'skill.json'
          : 'SKILL.md'
  const table = (list: readonly RuleMeta[]) =>
    [
      '| rule | default | applies to | what it reports |',
      '| --- | --- | --- | --- |',
      ...list.map(
        (r) =>
          `| [\`${r.id}\`](#${ruleAnchor(r.id)}) | ${SEVERITY[r.severity]} | ${applies(r)} | ${r.docs.replace(/\|/g, '\\|')} |`,
      ),
    ].join('\n')
  const sections = (list: readonly RuleMeta[]) =>
    list
      .map(
        (r) =>
          `<a id="${ruleAnchor(r.id)}"></a>\n### \`${r.id}\`\n\nDefault severity: **${SEVERITY[r.severity]}** · applies to ${applies(r)}\n\n${r.docs}\n${r.why ? `\nWhy: ${r.why}\n` : ''}${fixNote(r)}${examples(r, diffs.get(r.id))}`,
      )
      .join('\n')
  return `<!-- Generated by scripts/gen-rules-doc.mjs from src/core/lint/registry.ts: do not edit by hand. -->
# Rules of \`ongrid-skill validate\` and \`lint\`

Every finding names its rule. \`validate\` runs the **manager** rules (what the ongrid manager
would refuse, or what every run would hit) at their default severities; \`lint\` runs every
rule, with severities from \`.ongrid-skill.yaml\` and \`--rule ID=off|info|warn|error\`.
Messages of manager rules are the manager's own words; the others are ours.
Rule ids are stable.

Positions are \`line:column\`, 1-based; columns count characters (Unicode code points; bytes that
are not UTF-8 as editors decode them, one U+FFFD per maximal bad subsequence).
A finding about a key points at the key; one about the whole file at 1:1; a JSON syntax
error at the byte where Go's decoder stopped.

## Past the manager's parse error: the tolerant read

When the manager refuses to decode a skill.json (\`manager/parse\`), \`lint\` does not stop there:
the manager's finding comes first, in its words, and then the rules that need a decode report
what they find in a *tolerant read* of the same bytes: comments (\`//\`, \`/* */\`) and a byte
order mark skipped, trailing commas skipped, a missing comma between two values and
single-quoted strings read as meant, unclosed strings, arrays and objects closed at the end
(each guided by where Go's scanner stops, with every byte kept at its offset, so positions are
the file's own); and a value of the wrong type read as written where that is plain (\`"30"\` as
30 where \`timeout_seconds\` wants a number, \`12\` as "12" where a string goes, \`"PATH"\` as
\`["PATH"]\` for \`env_allow\`). Their findings are marked (\`"tolerant": true\` in \`--json\`, a line
above them in stylish, a line under each in github, SARIF and junit) and carry no fix: the file
holds what the read left out. A file no tolerant reading makes sense of (a bare word, an object
where a string goes, not an object at all) gets the manager's verdict alone; so does a file that
cannot be read, one over 256 KiB, or one needing more than 32 repairs. The pack is never counted as registered (a later pack of its name is no
duplicate); \`validate\` gives the manager's verdict alone.

With a baseline, each rule says whether it checked a file: a rule that needed a decode or a build
the manager refuses (and that no tolerant read gave it) did not, and its entries for the file (and
the pack's case files) are neither found nor fixed, and never pruned; the others (rules of the raw
text, rules that ran on the tolerant read) are judged as in any file.

## Configuration: \`.ongrid-skill.yaml\`

\`lint\` reads the nearest \`.ongrid-skill.yaml\` (or \`.ongrid-skill.yml\`; not both in one dir)
at or above each checked file (no merging between files), or the one file \`--config PATH\` names;
\`--no-config\` reads none; \`validate\` reads only their \`ignore\`. Editors complete and check the file
with the JSON Schema the package ships, \`schemas/ongrid-skill.schema.json\` (a \`$schema\` key
may point at it; \`schemas/skill.schema.json\` does the same for skill.json):

\`\`\`yaml
# yaml-language-server: $schema=./node_modules/ongrid-skill/schemas/ongrid-skill.schema.json
rules:
  practice/*: warn              # a glob (* within a segment) or a prefix (practice) selects rules
  practice/class-unset: off     # off | info | warn (or warning) | error; a later key wins
  schema/additional-properties: error
ignore:                         # globs relative to this file's dir
  - vendor/**                   # * and ? within a segment, ** across segments
  - experiments                 # a dir covers everything below it
\`\`\`

ShellCheck's findings have ids of their own, \`entry/SC<code>\` (\`entry/SC2086: off\`); each may be
set like a rule's id, and \`entry/shellcheck\` sets them all (a code's own setting wins).
\`--rule ID=SEVERITY\` (repeatable; ID a rule id, a prefix or a glob, a later one winning) wins
over the file; \`lint --print-config FILE\` prints each rule's severity for a file and where it
came from. A selector that selects no rule, an unknown key or
a bad severity is a tool error (exit 2), with the nearest valid name as a hint; a YAML error
gives the file's line and column. Ignored files are not reported, but their names
still count for \`manager/duplicate-name\`, as the manager still loads them.

## Fixes: \`lint --fix\`

Rules marked *Fixable* know the fix for certain: \`lint --fix\` makes it (minimal edits of the
file's bytes: layout, key order, numbers as written and comments stay; the entry's execute bit is
a mode change), checks again until no fix is left, reports what is left, and re-runs validate.
A fix only makes explicit what the manager already does, or makes a pack it refuses loadable.
\`--fix-dry-run\` prints the fixes as a unified diff (\`git apply\` takes it) and writes nothing;
\`--fix-type manager,best-practice,tests\` picks the categories. Rules with *Suggestions* offer
edits that would change what the manager does (\`--format json\`: \`suggestions\`): never applied.
In \`--format json\` each finding says \`fixable\` and carries \`fix: {edits: [{range, text}]}\`
(\`range\`: byte offsets of the file); SARIF carries them as \`fixes\`.

## Output and exit codes

\`--format stylish\` (default; colour on a terminal or with \`FORCE_COLOR\`, never with
\`NO_COLOR\`), \`json\` (also \`--json\`), \`sarif\` (2.1.0, paths relative
to the repository root: \`GITHUB_WORKSPACE\`, else the git top level, else the working dir), \`github\` (workflow commands: \`::error file=…,line=…,col=…,title=RULE::message\`)
and \`junit\`. \`--quiet\` shows only findings at or above the fail severity.

Exit 0: nothing at or above the fail severity (\`validate\`: error; \`lint\`: \`--fail-severity\`,
default error) and no more than \`--max-warnings\` warnings. Exit 1: findings. Exit 2: usage or
tool error (a PATH that does not exist, nothing to check, a bad config file).

## Manager rules (\`validate\` and \`lint\`)

${table(manager)}

## Best practices (\`lint\` only)

${table(practice)}

${
  tests.length === 0
    ? ''
    : `## Test cases (\`validate\` and \`lint\`)

A pack's own cases, \`tests/*.json\` beside its skill.json, which \`ongrid-skill test\` runs.
Findings are reported in the case file, at the key.

${table(tests)}

`
}## Details

${sections(rules)}`
}
