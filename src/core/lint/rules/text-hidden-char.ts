import { pack } from '../rule-kit/examples.js'
import { modelTexts, type StoredChar, storedChars } from '../rule-kit/model-text.js'
import type { ManifestRule } from '../rule-kit/util.js'

/** The characters that change or hide what a human sees of a text, by kind, with their names. */
const BIDI: Readonly<Record<number, string>> = {
  1564: 'ARABIC LETTER MARK',
  8206: 'LEFT-TO-RIGHT MARK',
  8207: 'RIGHT-TO-LEFT MARK',
  8234: 'LEFT-TO-RIGHT EMBEDDING',
  8235: 'RIGHT-TO-LEFT EMBEDDING',
  8236: 'POP DIRECTIONAL FORMATTING',
  8237: 'LEFT-TO-RIGHT OVERRIDE',
  8238: 'RIGHT-TO-LEFT OVERRIDE',
  8294: 'LEFT-TO-RIGHT ISOLATE',
  8295: 'RIGHT-TO-LEFT ISOLATE',
  8296: 'FIRST STRONG ISOLATE',
  8297: 'POP DIRECTIONAL ISOLATE',
}
const ZERO_WIDTH: Readonly<Record<number, string>> = {
  173: 'SOFT HYPHEN',
  6158: 'MONGOLIAN VOWEL SEPARATOR',
  8203: 'ZERO WIDTH SPACE',
  8204: 'ZERO WIDTH NON-JOINER',
  8205: 'ZERO WIDTH JOINER',
  8288: 'WORD JOINER',
  8289: 'FUNCTION APPLICATION',
  8290: 'INVISIBLE TIMES',
  8291: 'INVISIBLE SEPARATOR',
  8292: 'INVISIBLE PLUS',
  65279: 'ZERO WIDTH NO-BREAK SPACE',
}
const isTag = (cp: number) => cp >= 0xe0000 && cp <= 0xe007f

/** `U+202E`, as code points are named. */
export function codePoint(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`
}

/** An emoji a ZERO WIDTH JOINER may join (👨‍👩‍👧): not a hidden character there. */
const isPictograph = (cp: number | undefined) =>
  cp !== undefined && (cp >= 0x1f000 || (cp >= 0x2600 && cp <= 0x27bf) || (cp >= 0xfe00 && cp <= 0xfe0f))

/** The hidden characters of a text, in runs of neighbours (a run of tag characters is one finding). */
export function hiddenRuns(chars: readonly StoredChar[]): StoredChar[][] {
  const runs: StoredChar[][] = []
  let run: StoredChar[] = []
  chars.forEach((c, i) => {
    const hidden =
      c.cp in BIDI ||
      isTag(c.cp) ||
      (c.cp in ZERO_WIDTH &&
        !(c.cp === 0x200d && isPictograph(chars[i - 1]?.cp) && isPictograph(chars[i + 1]?.cp)))
    if (hidden) run.push(c)
    else if (run.length > 0) {
      runs.push(run)
      run = []
    }
  })
  if (run.length > 0) runs.push(run)
  return runs
}

/** What a run is, for a message. */
export function describeRun(run: readonly StoredChar[]): string {
  const tags = run.filter((c) => isTag(c.cp))
  if (tags.length === run.length) {
    const spelled = tags
      .map((c) => c.cp - 0xe0000)
      .filter((a) => a >= 0x20 && a < 0x7f)
      .map((a) => String.fromCharCode(a))
      .join('')
    return `${run.length} tag character${run.length === 1 ? '' : 's'} (${codePoint(run[0].cp)}…), invisible, spelling ${JSON.stringify(spelled.length > 60 ? `${spelled.slice(0, 57)}...` : spelled)}`
  }
  const names = [...new Set(run.map((c) => c.cp))].slice(0, 4).map((cp) => {
    const name = BIDI[cp] ?? ZERO_WIDTH[cp] ?? 'TAG'
    return `${codePoint(cp)} ${name}`
  })
  const kind = run.some((c) => c.cp in BIDI)
    ? 'a bidi control: it reorders what a human sees'
    : 'it is not seen'
  return `${names.join(', ')}${run.length > names.length ? ` (${run.length} characters)` : ''} (${kind})`
}

const rule: ManifestRule = {
  id: 'text/hidden-char',
  severity: 'error',
  category: 'best-practice',
  kind: 'manifest',
  docs: 'The description, or a `description` or `title` of the schema, holds characters a human does not see and the model reads: bidi controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), zero-width characters (U+200B–U+200D, U+2060–U+2064, U+FEFF, U+180E, U+00AD) and tag characters (U+E0000–U+E007F, which can spell a whole hidden text). Each run is named by its code points, at the byte where it is written (as UTF-8 or as a `\\u` escape). A ZERO WIDTH JOINER between two emoji is not reported.',
  examples: {
    bad: [
      { files: pack({ description: 'Reports the free space of a filesystem\u200b, in bytes.' }) },
      { files: pack({ description: 'Reports the free space of a filesystem, in \u202ebytes.' }) },
    ],
    good: [
      { files: pack() },
      { files: pack({ description: 'Reports the free space of a filesystem 👩‍💻, in bytes.' }) },
    ],
  },
  check(ctx, report) {
    for (const t of modelTexts(ctx)) {
      for (const run of hiddenRuns(storedChars(ctx.raw, t.node.start, t.node.end))) {
        report({
          at: run[0].at,
          message: `${t.where}: ${describeRun(run)}`,
          hint: 'remove it: the model reads what a reviewer of the pack cannot see',
        })
      }
    }
  },
}
export default rule
