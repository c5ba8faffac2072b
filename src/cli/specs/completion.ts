// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell syntax, not JavaScript templates
import { SHELLS } from '../../ui/completion.js'
import { defineSpec } from '../spec.js'

export const completionSpec = defineSpec({
  id: 'completion',
  summary: 'Print a shell completion script (bash or zsh)',
  description: `Commands, flags, the values of flags that take one of a list and the built-in templates complete; paths complete as files. The script is generated from the commands themselves and runs in the shell alone: completing never starts ongrid-skill.`,
  examples: [
    ['bash: add to ~/.bashrc', 'eval "$(<%= config.bin %> completion bash)"'],
    [
      'zsh: a file in your $fpath (then restart zsh)',
      '<%= config.bin %> completion zsh > "${fpath[1]}/_<%= config.bin %>"',
    ],
    ['zsh: or in ~/.zshrc, after compinit', 'eval "$(<%= config.bin %> completion zsh)"'],
  ],
  args: {
    shell: { description: 'the shell', options: SHELLS, required: true },
  },
  exits: [
    { code: 0, kind: 'ok', help: 'ok' },
    { code: 2, kind: 'usage', help: 'usage error' },
  ],
  schema: 'completion.schema.json',
})
