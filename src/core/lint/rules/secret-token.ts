import { pack } from '../rule-kit/examples.js'
import { secretRule } from '../rule-kit/secrets-scan.js'

export default secretRule('token', {
  id: 'secret/token',
  severity: 'error',
  docs: 'A token of a known format in a file of the pack: AWS access key ids (AKIA…), GitHub (ghp_…, github_pat_…), GitLab (glpat-…), Slack (xox…, webhooks), Google API keys (AIza…), OpenAI (sk-…), Anthropic (sk-ant-…), Stripe (sk_live_…). Shown masked: its prefix and its length.',
  examples: {
    bad: [
      {
        files: pack(
          {},
          {
            'run.sh': {
              exec: `#!/bin/sh\ncurl -H 'Authorization: token ${'ghp'}_${'a1B2c3D4e5F6g7H8i9J0'}${'k1L2m3N4o5P6q7R8s9T0'}' https://api.github.com/user\n`,
            },
          },
        ),
      },
    ],
    good: [
      {
        files: pack(
          {},
          {
            'run.sh': {
              exec: '#!/bin/sh\ncurl -H "Authorization: token $GITHUB_TOKEN" https://api.github.com/user\n',
            },
          },
        ),
      },
    ],
  },
})
