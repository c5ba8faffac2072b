import rule from '../../../../src/core/lint/rules/schema-not-object.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK } from './fixtures.js'

ruleTester(rule, {
  valid: [{ name: 'a clean pack', files: CLEAN_PACK }],
  invalid: [
    {
      files: {
        'skills/a/skill.json': '{"name":"clean","description":"d","entry":"run.sh","schema":"x"}',
        'skills/a/run.sh': ECHO,
      },
      findings: [
        {
          message:
            'subprocess skill "clean": invalid manifest schema: json: cannot unmarshal string into Go value of type map[string]interface {}',
          line: 1,
          column: 61,
          hint: 'the manager logs this as WARN "aiops/tools: skill schema build failed" and leaves the skill out of the LLM’s tools; schema must be a JSON Schema object.',
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
