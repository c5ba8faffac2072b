import rule from '../../../../src/core/lint/rules/practice-agent-tool-name.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: { 'skills/a/skill.json': pack({ name: 'query_promql' }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message:
            '"query_promql" is a built-in tool of the manager\'s legacy agent: this skill silently replaces it for the LLM (no log line)',
          line: 1,
          column: 2,
          file: 'skills/a/skill.json',
        },
      ],
    },
    {
      files: { 'skills/a/skill.json': pack({ name: 'host_bash' }), 'skills/a/run.sh': ECHO },
      findings: [
        {
          message:
            '"host_bash" is a built-in tool of the manager\'s graph agent: /api/v1/skills/host_bash will run this pack while the agent keeps its own tool',
          line: 1,
          column: 2,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
