// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell text as data, not templates
import rule from '../../../../src/core/lint/rules/secret-high-entropy.js'
import { ruleTester } from '../rule-tester.js'
import { CLEAN_PACK, colOf, pack } from './fixtures.js'
import { RANDOM } from './secret-fixtures.js'

const shipped = (name: string) =>
  `a high-entropy value assigned to "${name}" (20 characters, masked) is shipped in the pack: every manager host that loads it, and every marketplace upload of it, gets it`

ruleTester(rule, {
  valid: [
    { name: 'a clean pack', files: CLEAN_PACK },
    {
      name: 'references, placeholders, words, low entropy, names that mean no secret',
      files: {
        'skills/a/skill.json': pack(),
        'skills/a/run.sh': {
          exec: `#!/bin/sh\nAPI_KEY=\${API_KEY}\nTOKEN_FILE=/etc/ongrid/token\npassword=changeme-changeme-1\nsecret_name=databasecredentials\nTOKEN=aaaaaaaabbbbbbbb1111\nrequest_id=${RANDOM}\n`,
        },
        'skills/a/main.go': {
          exec: 'package main\n\nvar c = Config{APIKey: cfg.OpenAI.APIKey, Model: m}\nfunc f() { c.BootstrapTokenHash = controllerTokenHash }\n',
        },
      },
    },
  ],
  invalid: [
    {
      name: 'in skill.json (env), a YAML file, a JSON file, a .env file',
      files: {
        'skills/a/skill.json': pack({ env: { API_KEY: RANDOM } }),
        'skills/a/run.sh': { exec: '#!/bin/sh\ncat\n' },
        'skills/a/conf.yaml': `db:\n  password: ${RANDOM}\n`,
        'skills/a/conf.json': `{"client_secret": "${RANDOM}"}\n`,
        'skills/a/.env': `export GRAFANA_TOKEN='${RANDOM}'\n`,
      },
      findings: [
        { line: 1, column: colOf({ env: { API_KEY: RANDOM } }, RANDOM), message: shipped('API_KEY') },
        { file: 'skills/a/.env', line: 1, column: 23, message: shipped('GRAFANA_TOKEN') },
        { file: 'skills/a/conf.json', line: 1, column: 20, message: shipped('client_secret') },
        { file: 'skills/a/conf.yaml', line: 2, column: 13, message: shipped('password') },
      ],
    },
  ],
})
