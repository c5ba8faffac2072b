import { builtinTemplateNames } from '../../core/init/templates.js'
import { type CompletionCommand, completionScript, type Shell } from '../../ui/completion.js'
import { envelope } from '../../ui/envelope.js'
import { EXIT } from '../errors.js'

export type { CompletionCommand, Shell } from '../../ui/completion.js'

/** The completion script for the given commands; a `--template` flag completes the built-in templates. */
export function completion(shell: Shell, bin: string, commands: CompletionCommand[]): string {
  const templates = builtinTemplateNames()
  const withTemplates = commands.map((c) => ({
    ...c,
    flags: c.flags.map((f) => {
      if (!f.takesValue || f.options !== undefined || f.name !== 'template') return f
      return { ...f, options: templates }
    }),
  }))
  return completionScript(shell, bin, withTemplates)
}

/** `completion SHELL --json` (schemas/output/completion.schema.json): the shell and its script. */
export function completionJson(shell: Shell, script: string) {
  return envelope('completion', EXIT.ok, { shell, script })
}
