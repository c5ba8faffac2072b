import { builtinTemplateNames } from '../../core/init/templates.js'
import { type CompletionCommand, completionScript, type Shell } from '../../ui/completion.js'

export { type CompletionCommand, SHELLS, type Shell } from '../../ui/completion.js'

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
