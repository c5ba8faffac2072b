import { builtinsSharing, cosine, toolVector } from '../../agent/similarity.js'
import { toText } from '../../go/gostring.js'
import type { ManifestContext } from '../context.js'
import { pack } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'

/**
 * The similarity (core/agent/similarity.ts) from which two tools are reported. On the labelled
 * pairs of test/fixtures/similarity/pairs.json it reports 2 of 456 distinct pairs and finds 15 of
 * 33 confusable ones (docs/decisions.md; a test recomputes them).
 */
export const CONFUSABLE_FROM = 0.4

/** Each pack's vector, made once however many packs come after it. */
const vectors = new WeakMap<ManifestContext, Map<string, number>>()

function vectorOf(ctx: ManifestContext, name: string): Map<string, number> {
  let v = vectors.get(ctx)
  if (v === undefined) {
    // The words the author wrote: the bridge's "Returns: {...} (subprocess skill output)", the
    // same after every pack's description, tells no pack from another.
    v = toolVector(name, toText(ctx.skill?.description ?? ''))
    vectors.set(ctx, v)
  }
  return v
}

const rule: ManifestRule = {
  id: 'practice/confusable-tool',
  readsBeyondPack: 'the packs registered before this one',
  severity: 'warn',
  category: 'best-practice',
  kind: 'manifest',
  docs: `The tool's name and description read like another tool's in the same request: a builtin tool the manager offers (any of the 30 the compose install's registry holds) or a pack linted before it in the same run. The model picks a tool from these words alone, and may call one for the other. The score is the cosine of the two tools' TF-IDF vectors of name and description words (no model; reported from ${CONFUSABLE_FROM}); each pair of packs is reported once, at the later one. Silence proves nothing: on its labelled sample it finds under half of the confusable pairs (those that say the same in other words, or another language, score low); \`eval\` measures the confusion with a model.`,
  examples: {
    bad: [
      {
        files: pack(
          { name: 'tail_log', description: 'Return the last N lines of a log file on the host.' },
          {},
          'tail_log',
        ),
      },
      {
        files: {
          ...pack(
            { name: 'nginx_errors', description: 'Return the last error lines of the nginx error log.' },
            {},
            'nginx_errors',
          ),
          ...pack(
            {
              name: 'nginx_error_log',
              description: 'Tail the nginx error log and return the newest entries.',
            },
            {},
            'nginx_error_log',
          ),
        },
      },
    ],
    good: [
      { files: pack() },
      {
        files: {
          ...pack(),
          ...pack(
            { name: 'restart_nginx', description: 'Restart the nginx service on the manager host.' },
            {},
            'restart_nginx',
          ),
        },
      },
    ],
  },
  check(ctx, report) {
    if (ctx.taken !== null) return
    const def = ctx.tool()
    if (def === null || !def.offered) return
    const me = toText(def.name)
    const close: { name: string; score: number; builtin: boolean }[] = []
    const mine = vectorOf(ctx, me)
    // A builtin sharing no term scores 0: only the others' vectors are made.
    for (const b of builtinsSharing(mine)) {
      // A pack of a builtin's name replaces it (the registry overwrites by name).
      if (b.name === me) continue
      const score = cosine(mine, b.vector)
      if (score >= CONFUSABLE_FROM) close.push({ name: b.name, score, builtin: true })
    }
    for (const other of ctx.earlier) {
      const o = other.tool()
      if (o === null || !o.offered) continue
      const score = cosine(mine, vectorOf(other, toText(o.name)))
      if (score >= CONFUSABLE_FROM) close.push({ name: toText(o.name), score, builtin: false })
    }
    if (close.length === 0) return
    close.sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    const [top, ...rest] = close
    const what = top.builtin ? `the builtin tool "${top.name}"` : `the pack tool "${top.name}"`
    const more =
      rest.length === 0
        ? ''
        : `; also ${rest
            .slice(0, 3)
            .map((c) => `"${c.name}" ${c.score.toFixed(2)}`)
            .join(', ')}${rest.length > 3 ? ` and ${rest.length - 3} more` : ''}`
    report({
      at: ctx.keyAt('description') ?? ctx.keyAt('name'),
      message: `the name and description read like those of ${what} in the same request (similarity ${top.score.toFixed(2)}, reported from ${CONFUSABLE_FROM.toFixed(2)})${more}: the model may call one for the other`,
      hint: top.builtin
        ? `Say what this tool does that "${top.name}" does not (what it reads, where, which cases it is for), in words of its own; if "${top.name}" already does the job, the pack is not needed.`
        : `Say in each description what sets it apart from "${top.name}" (what it reads, where, which cases it is for), or merge the two packs.`,
    })
  },
}
export default rule
