// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell text as data, not templates
import { pack } from '../rule-kit/examples.js'
import { secretRule } from '../rule-kit/secrets-scan.js'

export default secretRule('assigned', {
  id: 'secret/high-entropy',
  severity: 'warn',
  docs: 'A value that looks random (16 or more characters, at least 3.5 bits of entropy a character, digits or mixed case) assigned to a name that means a secret (`API_KEY=…`, `"client_secret": "…"`, `password: …`) in a file of the pack. References and placeholders (`$VAR`, `${…}`, `<…>`, `changeme`, `example`, `xxxx`) are not reported. Shown masked.',
  examples: {
    bad: [{ files: pack({}, { 'config.env': `API_KEY=${'q8Vd2LmX'}${'7rTz4KpW9sNb'}\n` }) }],
    good: [{ files: pack({}, { 'config.env': 'API_KEY=${API_KEY}\nTOKEN_FILE=/etc/ongrid/token\n' }) }],
  },
})
