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

let builtinTermsMemo: { name: string; counts: Map<string, number> }[] | null = null

/**
 * The builtins' term counts, in builtinTexts()'s order: termCounts of each, as
 * core/agent/builtin-terms.ts keeps them (generated from the same texts by
 * scripts/gen-builtin-terms.mjs; a test checks the two agree). Splitting the 7,500 characters
 * of the builtins into terms each run cost more than the rest of a one-pack lint.
 */
function builtinTerms(): { name: string; counts: Map<string, number> }[] {
  builtinTermsMemo ??= BUILTIN_TERMS.map(([name, encoded]) => {
    const counts = new Map<string, number>()
    if (encoded !== '')
      for (const pair of encoded.split(' ')) {
        const eq = pair.lastIndexOf('=')
        counts.set(pair.slice(0, eq), Number(pair.slice(eq + 1)))
      }
    return { name, counts }
  })
  return builtinTermsMemo
}

let idfMemo: { idf: Map<string, number>; unseen: number } | null = null

/** Smoothed IDF over the builtins: ln((1+N)/(1+df)) + 1; a term no builtin has gets the most. */
function idf(): { idf: Map<string, number>; unseen: number } {
  if (idfMemo !== null) return idfMemo
  const docs = builtinTerms()
  const df = new Map<string, number>()
  for (const d of docs) for (const t of d.counts.keys()) df.set(t, (df.get(t) ?? 0) + 1)
  const n = docs.length
  const out = new Map<string, number>()
  for (const [t, k] of df) out.set(t, Math.log((1 + n) / (1 + k)) + 1)
  idfMemo = { idf: out, unseen: Math.log(1 + n) + 1 }
  return idfMemo
}

/** A tool's TF-IDF vector, unit length (empty when it has no terms). */
export function toolVector(name: string, description: string): Map<string, number> {
  return unitVector(termCounts(name, description))
}

function unitVector(counts: Map<string, number>): Map<string, number> {
  const { idf: w, unseen } = idf()
  const v = new Map<string, number>()
  let norm = 0
  for (const [t, c] of counts) {
    const x = c * (w.get(t) ?? unseen)
    v.set(t, x)
    norm += x * x
  }
  norm = Math.sqrt(norm)
  if (norm > 0) for (const [t, x] of v) v.set(t, x / norm)
  return v
}

/** The cosine of two unit vectors: 0 (no term shared) to 1 (the same terms in the same shares). */
export function cosine(a: Map<string, number>, b: Map<string, number>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a]
  let dot = 0
  for (const [t, x] of small) dot += x * (large.get(t) ?? 0)
  return Math.min(1, dot)
}

let builtinMemo: { name: string; vector: Map<string, number> }[] | null = null

/** The builtins' vectors, made once. */
export function builtinVectors(): readonly { name: string; vector: Map<string, number> }[] {
  builtinMemo ??= builtinTerms().map((t) => ({ name: t.name, vector: unitVector(t.counts) }))
  return builtinMemo
}

/** The similarity of two tools, from their names and descriptions. */
export function toolSimilarity(
  a: { name: string; description: string },
  b: { name: string; description: string },
): number {
  return cosine(toolVector(a.name, a.description), toolVector(b.name, b.description))
}
