import rule, { MAX_TOOL_BYTES } from '../../../../src/core/lint/rules/practice-tool-size.js'
import { ECHO } from '../../../helpers/tree.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'

/** A pack whose tool definition is `bytes` long: its one property's description fills it. */
function sized(bytes: number, cls = 'safe') {
  const empty = `{"type":"function","function":{"name":"a","description":"Reports the free space of a filesystem.\\n\\nReturns: {...} (subprocess skill output)","parameters":{"properties":{"p":{"description":"","type":"string"}},"type":"object"}}}`
  const schema = {
    type: 'object',
    properties: { p: { type: 'string', description: 'x'.repeat(bytes - empty.length) } },
  }
  return {
    'skills/a/skill.json': pack({
      name: 'a',
      description: 'Reports the free space of a filesystem.',
      class: cls,
      schema,
    }),
    'skills/a/run.sh': ECHO,
  }
}

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    { name: 'exactly the budget', files: sized(MAX_TOOL_BYTES) },
    { name: 'not offered to the LLM (mutating)', files: sized(MAX_TOOL_BYTES + 500, 'mutating') },
  ],
  invalid: [
    {
      files: sized(MAX_TOOL_BYTES + 1),
      findings: [
        {
          message: `the tool definition is ${MAX_TOOL_BYTES + 1} bytes (about 560 tokens), more than any builtin tool the manager offers (at most ${MAX_TOOL_BYTES}); the most room: property "p" 2046 bytes, the description 81 bytes`,
          line: 1,
          column: 143,
          file: 'skills/a/skill.json',
        },
      ],
    },
  ],
})
