import { toText } from '../../go/gostring.js'
import { pack } from '../rule-kit/examples.js'
import type { ManifestRule } from '../rule-kit/util.js'

/**
 * The legacy agent's closure tools (tools/registry.go): a subprocess skill with one of these names
 * silently REPLACES the built-in tool for the legacy agent (Register overwrites, and the skill
 * bridge runs after the closures are registered). The graph agent's BaseTool bag: the inventory
 * bridge skips a BaseTool whose name is already a skill, so /api/v1/skills/<name> runs the pack
 * while the graph LLM keeps its own tool. Both lists are the release's (core/releases).
 */
const rule: ManifestRule = {
  id: 'practice/agent-tool-name',
  severity: 'warn',
  category: 'best-practice',
  kind: 'manifest',
  docs: 'The name is one of the manager’s built-in agent tools (at the manager release checked against): the pack silently replaces it for the legacy agent, or shadows it in the skills API.',
  examples: { bad: [{ files: pack({ name: 'query_promql' }) }], good: [{ files: pack() }] },
  check(ctx, report) {
    const name = ctx.parsed?.manifest.name ?? ''
    if (!ctx.ok || name === '') return
    const { legacyAgentTools, graphAgentTools } = ctx.release
    if (legacyAgentTools.includes(name)) {
      report({
        at: ctx.keyAt('name'),
        message: `"${toText(name)}" is a built-in tool of the manager's legacy agent: this skill silently replaces it for the LLM (no log line)`,
      })
    } else if (graphAgentTools.includes(name)) {
      report({
        at: ctx.keyAt('name'),
        message: `"${toText(name)}" is a built-in tool of the manager's graph agent: /api/v1/skills/${toText(name)} will run this pack while the agent keeps its own tool`,
      })
    }
  },
}
export default rule
