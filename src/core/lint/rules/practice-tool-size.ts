import { toText } from '../../go/gostring.js'
import { pack } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'

/**
 * The largest tool definition among the builtin tools the manager offers by default (v0.13.4,
 * the compose install: query_k8s_snapshot, 2239 bytes as the request carries it; eval's goldens
 * hold them all, and a test keeps this number equal to their largest). A pack above it costs
 * every request more than any tool the manager's authors offer.
 */
export const MAX_TOOL_BYTES = 2239

/** The rough token count of JSON text: 4 bytes a token. */
const tokens = (bytes: number) => Math.ceil(bytes / 4)

const rule: ManifestRule = {
  id: 'practice/tool-size',
  severity: 'warn',
  category: 'best-practice',
  kind: 'manifest',
  docs: `The tool definition the LLM gets (name, description, schema, as \`lint --show-tool\` prints it) is over ${MAX_TOOL_BYTES} bytes, the largest of the builtin tools the manager offers: it is sent with every request of every chat turn, and crowds the others.`,
  examples: {
    bad: [
      {
        files: pack({
          schema: {
            type: 'object',
            properties: {
              path: { type: 'string', description: `Path. ${'Any mounted path works. '.repeat(100)}` },
            },
          },
        }),
      },
    ],
    good: [{ files: pack() }],
  },
  check(ctx, report) {
    const def = ctx.tool()
    if (def === null || !def.offered) return
    const n = def.json.length
    if (n <= MAX_TOOL_BYTES) return
    const parts: [string, number][] = [['the description', def.description.length]]
    try {
      const p = JSON.parse(toText(def.parameters)) as { properties?: Record<string, unknown> }
      for (const [k, v] of Object.entries(p.properties ?? {}))
        parts.push([`property ${JSON.stringify(k)}`, Buffer.byteLength(JSON.stringify(v))])
    } catch {}
    parts.sort((a, b) => b[1] - a[1])
    report({
      at: ctx.keyAt('schema') ?? ctx.keyAt('description'),
      message: `the tool definition is ${n} bytes (about ${tokens(n)} tokens), more than any builtin tool the manager offers (at most ${MAX_TOOL_BYTES}); the most room: ${parts
        .slice(0, 3)
        .map(([what, b]) => `${what} ${b} bytes`)
        .join(', ')}`,
      hint: 'Every request carries it: say what the skill does and when to use it, and leave the rest to the README.',
    })
  },
}
export default rule
