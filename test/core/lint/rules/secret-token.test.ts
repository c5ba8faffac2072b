import { writeFileSync } from 'node:fs'
import rule from '../../../../src/core/lint/rules/secret-token.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, colOf, pack } from './fixtures.js'
import { AWS, GH, GOOGLE, OPENAI, SLACK } from './secret-fixtures.js'

const HINT =
  'revoke it, and have the skill read it at run time (an environment variable named in env_allow, or a file outside the pack)'
const shipped = (what: string) =>
  `${what} is shipped in the pack: every manager host that loads it, and every marketplace upload of it, gets it`

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    {
      name: "references, AWS's documented example key, a repeated filler",
      files: {
        'skills/a/skill.json': pack(),
        'skills/a/run.sh': {
          exec: '#!/bin/sh\ncurl -H "Authorization: token $GITHUB_TOKEN" x\nAWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\nK=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n',
        },
      },
    },
    {
      name: 'not read: binaries, node_modules, .git, a link (not followed), a file too large',
      files: {
        'skills/a/skill.json': pack(),
        'skills/a/run.sh': { exec: '#!/bin/sh\ncat\n' },
        'skills/a/node_modules/x/test.js': `const k = '${GH}'\n`,
        'skills/a/.git/config': `token = ${GH}\n`,
        'skills/a/link.txt': { link: '../../outside.txt' },
        'outside.txt': `${GH}\n`,
      },
      setup: (R) => {
        writeFileSync(`${R}/skills/a/blob.bin`, Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(GH)]))
        writeFileSync(`${R}/skills/a/big.txt`, `${GH}\n${'x'.repeat(1024 * 1024)}`)
      },
    },
  ],
  invalid: [
    {
      name: 'in skill.json (env), at the value, masked',
      files: {
        'skills/a/skill.json': pack({ env: { GH } }),
        'skills/a/run.sh': { exec: '#!/bin/sh\ncat\n' },
      },
      findings: [
        {
          line: 1,
          column: colOf({ env: { GH } }, GH),
          message: shipped('a GitHub token (ghp_…, 44 characters, masked)'),
          hint: HINT,
        },
      ],
    },
    {
      name: 'in the entry and in other files of the pack, each format named',
      files: {
        'skills/a/skill.json': pack(),
        'skills/a/run.sh': {
          exec: `#!/bin/sh\nexport AWS_ACCESS_KEY_ID=${AWS}\ncurl -d "token=${SLACK}" x\n`,
        },
        'skills/a/lib/keys.py': `GOOGLE = "${GOOGLE}"\nOPENAI = "${OPENAI}"\n`,
      },
      findings: [
        {
          file: 'skills/a/lib/keys.py',
          line: 1,
          column: 11,
          message: shipped('a Google API key (AIza…, 39 characters, masked)'),
        },
        {
          file: 'skills/a/lib/keys.py',
          line: 2,
          column: 11,
          message: shipped('an OpenAI API key (sk-…, 44 characters, masked)'),
        },
        {
          file: 'skills/a/run.sh',
          line: 2,
          column: 26,
          message: shipped('an AWS access key id (AKIA…, 20 characters, masked)'),
        },
        {
          file: 'skills/a/run.sh',
          line: 3,
          column: 16,
          message: shipped('a Slack token (xoxb-…, 28 characters, masked)'),
        },
      ],
    },
  ],
})
