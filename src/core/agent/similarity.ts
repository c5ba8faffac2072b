/**
 * How alike two tools look to a model choosing between them from their names and descriptions:
 * the cosine of their TF-IDF vectors. Deterministic and cheap, no model: a term is a lowercased
 * word of the name (snake_case and camelCase split) or of the description, stop words out, a
 * plural's `s` off; a run of CJK characters gives its character pairs (Chinese has no spaces to
 * split words at). A name's terms count twice: the name is what a model matches a request
 * against first. The IDF is that of the manager's builtin tools (every profile's), one fixed
 * corpus: the score of a pair does not move when other packs come or go, and words every
 * builtin uses ("return", "use", "host") weigh less than the words that tell tools apart.
 * docs/decisions.md says why this measure and its threshold.
 */
import { BUILTIN_TERMS } from './builtin-terms.js'
import { BUILTIN_SAFE_SKILLS, REGISTRY_TOOLS } from './builtins.js'

/** English function words and the filler of tool descriptions; they tell no tool from another. */
const STOP = new Set(
  (
    'a an and any are as at be been but by can could do does e.g eg etc for from has have how i ' +
    'ie if in into is it its may more most must no not of on one only or other our out over per ' +
    'same should so such than that the their them then there these they this those to too under ' +
    'up use used uses using via was we what when where whether which while who will with without ' +
    'you your'
  ).split(' '),
)

const CJK = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/u

function stem(w: string): string {
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) return w.slice(0, -1)
  return w
}

/** The terms of a text, in order (repeats kept). */
export function terms(text: string): string[] {
  // Text in ASCII needs neither the Unicode classes nor the CJK cut (same terms, by test):
  // compiling the classes costs more than a lint of one pack does otherwise.
  return ASCII.test(text) ? asciiTerms(text) : unicodeTerms(text)
}

const ASCII = /^[\x00-\x7f]*$/

/** terms() of a text in ASCII: letters are A-Z and a-z, digits 0-9, and no run is CJK. */
export function asciiTerms(text: string): string[] {
  const out: string[] = []
  for (const run of text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[^A-Za-z0-9]+/)) word(run, out)
  return out
}

/** terms() of any text. */
export function unicodeTerms(text: string): string[] {
  const out: string[] = []
  // camelCase → camel Case, before lowercasing; `_` and every other non-letter split words.
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
  for (const run of spaced.split(/[^\p{L}\p{N}]+/u)) {
    if (run === '') continue
    // A run may mix CJK and other letters ("读取tail"): cut it where the script changes.
    for (const part of run.match(
      /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[^\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/gu,
    ) ?? []) {
      if (CJK.test(part)) {
        const cs = [...part]
        if (cs.length === 1) out.push(cs[0])
        for (let i = 0; i + 1 < cs.length; i++) out.push(cs[i] + cs[i + 1])
        continue
      }
      word(part, out)
    }
  }
  return out
}

/** A run of letters and digits that is not CJK: its term, unless it tells nothing. */
function word(part: string, out: string[]): void {
  const w = part.toLowerCase()
  if (w.length < 2 || STOP.has(w) || /^\d+$/.test(w)) return
  out.push(stem(w))
}

/** A tool's term counts: its name's terms twice, its description's once. */
export function termCounts(name: string, description: string): Map<string, number> {
  const tf = new Map<string, number>()
  for (const t of terms(name)) tf.set(t, (tf.get(t) ?? 0) + 2)
  for (const t of terms(description)) tf.set(t, (tf.get(t) ?? 0) + 1)
  return tf
}

/** Term counts as core/agent/builtin-terms.ts writes them: `term=count`, separated by spaces. */
export function encodeTermCounts(counts: Map<string, number>): string {
  return [...counts].map(([t, c]) => `${t}=${c}`).join(' ')
}

/** The builtins' texts as the request carries them (a skill's result preview included). */
export function builtinTexts(): { name: string; description: string }[] {
  return [
    ...REGISTRY_TOOLS.map((t) => ({ name: t.name, description: t.description })),
    ...BUILTIN_SAFE_SKILLS.map((s) => ({
      name: s.key,
      description: s.resultPreview !== '' ? `${s.description}\n\nReturns: ${s.resultPreview}` : s.description,
    })),
  ]
}

/** A builtin's terms and their counts, in the same order (its term count map's). */
interface BuiltinTerms {
  name: string
  terms: string[]
  counts: number[]
}

let builtinTermsMemo: BuiltinTerms[] | null = null

/**
 * The builtins' term counts, in builtinTexts()'s order: termCounts of each, as
 * core/agent/builtin-terms.ts keeps them (generated from the same texts by
 * scripts/gen-builtin-terms.mjs; a test checks the two agree). Splitting the 7,500 characters
 * of the builtins into terms each run cost more than the rest of a one-pack lint. Kept as lists,
 * not maps: a map per builtin, grown one term at a time, was most of the 0.9 MB the first score
 * allocated (and of the garbage collections of a one-pack lint).
 */
function builtinTerms(): BuiltinTerms[] {
  builtinTermsMemo ??= BUILTIN_TERMS.map(([name, encoded]) => {
    const terms: string[] = []
    const counts: number[] = []
    if (encoded !== '')
      for (const pair of encoded.split(' ')) {
        const eq = pair.lastIndexOf('=')
        terms.push(pair.slice(0, eq))
        counts.push(Number(pair.slice(eq + 1)))
      }
    return { name, terms, counts }
  })
  return builtinTermsMemo
}

let dfMemo: Map<string, number> | null = null

/** How many builtins hold each term (its document frequency). */
function documentFrequencies(): Map<string, number> {
  if (dfMemo !== null) return dfMemo
  dfMemo = new Map<string, number>()
  for (const d of builtinTerms()) for (const t of d.terms) dfMemo.set(t, (dfMemo.get(t) ?? 0) + 1)
  return dfMemo
}

/** Smoothed IDF over the builtins: ln((1+N)/(1+df)) + 1; a term no builtin has gets the most. */
function idf(term: string, df: ReadonlyMap<string, number>, n: number): number {
  const k = df.get(term)
  return k === undefined ? Math.log(1 + n) + 1 : Math.log((1 + n) / (1 + k)) + 1
}

/** A tool's TF-IDF vector, unit length (empty when it has no terms). */
export function toolVector(name: string, description: string): Map<string, number> {
  const tf = termCounts(name, description)
  return unitVector([...tf.keys()], [...tf.values()])
}

/** The vector of terms with these counts, in their order, each weighed by its IDF, unit length. */
function unitVector(terms: readonly string[], counts: readonly number[]): Map<string, number> {
  const df = documentFrequencies()
  const n = builtinTerms().length
  const xs: number[] = []
  let norm = 0
  for (let i = 0; i < terms.length; i++) {
    const x = counts[i] * idf(terms[i], df, n)
    xs.push(x)
    norm += x * x
  }
  norm = Math.sqrt(norm)
  const v = new Map<string, number>()
  for (let i = 0; i < terms.length; i++) v.set(terms[i], norm > 0 ? xs[i] / norm : xs[i])
  return v
}

/** The cosine of two unit vectors: 0 (no term shared) to 1 (the same terms in the same shares). */
export function cosine(a: Map<string, number>, b: Map<string, number>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a]
  let dot = 0
  for (const [t, x] of small) dot += x * (large.get(t) ?? 0)
  return Math.min(1, dot)
}

const builtinMemo: { name: string; vector: Map<string, number> }[] = []

/** The i-th builtin's vector, made once. */
function builtinVector(i: number): { name: string; vector: Map<string, number> } {
  if (builtinMemo[i] === undefined) {
    const t = builtinTerms()[i]
    builtinMemo[i] = { name: t.name, vector: unitVector(t.terms, t.counts) }
  }
  return builtinMemo[i]
}

/** The builtins' vectors, in builtinTexts()'s order. */
export function builtinVectors(): readonly { name: string; vector: Map<string, number> }[] {
  return builtinTerms().map((_, i) => builtinVector(i))
}

/**
 * The builtins sharing a term with the vector, with their vectors, in builtinTexts()'s order: the
 * only ones whose cosine with it is above 0 (the others' is 0 exactly), without making the others'.
 */
export function builtinsSharing(
  v: ReadonlyMap<string, number>,
): { name: string; vector: Map<string, number> }[] {
  const out: { name: string; vector: Map<string, number> }[] = []
  for (const [i, t] of builtinTerms().entries()) if (t.terms.some((x) => v.has(x))) out.push(builtinVector(i))
  return out
}

/** The similarity of two tools, from their names and descriptions. */
export function toolSimilarity(
  a: { name: string; description: string },
  b: { name: string; description: string },
): number {
  return cosine(toolVector(a.name, a.description), toolVector(b.name, b.description))
}
