import { pack } from '../rule-kit/examples.js'
import { secretRule } from '../rule-kit/secrets-scan.js'

export default secretRule('private-key', {
  id: 'secret/private-key',
  severity: 'error',
  docs: 'A private key (`-----BEGIN … PRIVATE KEY-----`) in a file of the pack (skill.json, the entry, any other file but version control data and node_modules): it reaches every manager host that loads the pack and every marketplace upload. The message names the file and line, never the key.',
  examples: {
    bad: [
      {
        files: pack(
          {},
          {
            'key.pem': `-----BEGIN ${'OPENSSH'} PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----\n`,
          },
        ),
      },
    ],
    good: [
      {
        files: pack(
          {},
          { 'README.md': 'Generate a key with ssh-keygen; never put the private key in the pack.\n' },
        ),
      },
    ],
  },
})
