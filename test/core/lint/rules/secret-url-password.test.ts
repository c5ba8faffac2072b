// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell text as data, not templates
import rule from '../../../../src/core/lint/rules/secret-url-password.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, colOf, pack } from './fixtures.js'
import { URL_PW } from './secret-fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    {
      name: 'placeholders and references',
      files: {
        'skills/a/skill.json': pack(),
        'skills/a/run.sh': {
          exec: '#!/bin/sh\ncurl https://bob:$PW@x.io/\ncurl "https://bob:${PW}@x.io/"\n',
        },
        'skills/a/README.md':
          'Set it as https://user:password@host/ or https://admin:<password>@host/ or https://u:changeme@h/ (no git@github.com:x/y either).\n',
      },
    },
  ],
  invalid: [
    {
      name: 'in skill.json and in the entry, at the password, masked',
      files: {
        'skills/a/skill.json': pack({
          description: `Checks https://admin:${URL_PW}@grafana.internal/ health.`,
        }),
        'skills/a/run.sh': { exec: `#!/bin/sh\nredis-cli -u redis://:${URL_PW}@cache:6379 ping\n` },
      },
      findings: [
        {
          line: 1,
          column: colOf({ description: `Checks https://admin:${URL_PW}@grafana.internal/ health.` }, URL_PW),
          message:
            'a password in a URL (12 characters, masked) is shipped in the pack: every manager host that loads it, and every marketplace upload of it, gets it',
        },
        {
          file: 'skills/a/run.sh',
          line: 2,
          column: 23,
          message: /^a password in a URL \(12 characters, masked\)/,
        },
      ],
    },
  ],
})
