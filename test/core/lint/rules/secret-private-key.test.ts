import rule from '../../../../src/core/lint/rules/secret-private-key.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, pack } from './fixtures.js'
import { KEY_PEM } from './secret-fixtures.js'

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    {
      name: 'a public key, a certificate, words about keys',
      files: {
        'skills/a/skill.json': pack(),
        'skills/a/run.sh': { exec: '#!/bin/sh\ncat\n' },
        'skills/a/ca.pem': '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
        'skills/a/pub.pem': '-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----\n',
        'skills/a/README.md':
          'Never ship a private key in the pack.\n\n    -----BEGIN OPENSSH PRIVATE KEY-----\n    ...\n',
      },
    },
  ],
  invalid: [
    {
      name: 'a key file, and one in a script; the key never shown',
      files: {
        'skills/a/skill.json': pack(),
        'skills/a/run.sh': { exec: `#!/bin/sh\ncat >/tmp/k <<'EOF'\n${KEY_PEM}EOF\n` },
        'skills/a/deploy/id_ed25519': KEY_PEM,
      },
      findings: [
        {
          file: 'skills/a/deploy/id_ed25519',
          line: 1,
          column: 1,
          message:
            'a private key (-----BEGIN OPENSSH PRIVATE KEY-----) is shipped in the pack: every manager host that loads it, and every marketplace upload of it, gets it',
        },
        {
          file: 'skills/a/run.sh',
          line: 3,
          column: 1,
          message: /^a private key \(-----BEGIN OPENSSH PRIVATE KEY-----\)/,
        },
      ],
    },
  ],
})
