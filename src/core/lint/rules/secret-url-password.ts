// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell text as data, not templates
import { pack } from '../rule-kit/examples.js'
import { secretRule } from '../rule-kit/secrets-scan.js'

export default secretRule('url-password', {
  id: 'secret/url-password',
  severity: 'error',
  docs: 'A URL with a password in it (`scheme://user:password@host`) in a file of the pack. Placeholders (`$VAR`, `${VAR}`, `<password>`, `password`, `changeme`, `example`…) are not reported. Shown masked.',
  examples: {
    bad: [
      {
        files: pack(
          {},
          {
            'run.sh': {
              exec: `#!/bin/sh\ncurl -fsS https://admin:${'Tr0ub4dor'}${'-x9'}@grafana.internal/api/health\n`,
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
              exec: '#!/bin/sh\ncurl -fsS -u "admin:$GRAFANA_PASSWORD" https://grafana.internal/api/health\n',
            },
          },
        ),
      },
    ],
  },
})
