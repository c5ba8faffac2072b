import { toText } from '../../go/gostring.js'
import { GRAPH_TOOL_NAMES, LEGACY_TOOL_NAMES } from '../agent-tools.js'
import { pack } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'

const LEGACY = new Set(LEGACY_TOOL_NAMES)
const GRAPH = new Set(GRAPH_TOOL_NAMES)

const rule: ManifestRule = {
  id: 'practice/agent-tool-name',
  severity: 'warn',
  category: 'best-practice',
  kind: 'manifest',
  docs: 'The name is one of the manager’s built-in agent tools (v0.13.4): the pack silently replaces it for the legacy agent, or shadows it in the skills API.',
  examples: { bad: [{ files: pack({ name: 'query_promql' }) }], good: [{ files: pack() }] },
  check(ctx, report) {
    const name = ctx.parsed?.manifest.name ?? ''
    if (!ctx.ok || name === '') return
    if (LEGACY.has(name)) {
      report({
        at: ctx.keyAt('name'),
        message: `"${toText(name)}" is a built-in tool of the manager's legacy agent: this skill silently replaces it for the LLM (no log line)`,
      })
    } else if (GRAPH.has(name)) {
      report({
        at: ctx.keyAt('name'),
        message: `"${toText(name)}" is a built-in tool of the manager's graph agent: /api/v1/skills/${toText(name)} will run this pack while the agent keeps its own tool`,
      })
    }
  },
}
export default rule
