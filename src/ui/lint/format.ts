import { packageVersion } from '../../core/package-root.js'
import { colorWanted } from '../color.js'
import type { LintOutput } from './model.js'

/** The output formats of `lint`, `validate` and `marketplace check|verify`. */
export const LINT_FORMATS = ['stylish', 'json', 'sarif', 'github', 'junit'] as const
export type LintFormat = (typeof LINT_FORMATS)[number]

/**
 * One lint output in a format. Each formatter is imported only when used (cold start:
 * validate of one pack).
 */
export async function renderLint(format: LintFormat, output: LintOutput): Promise<string> {
  switch (format) {
    case 'stylish': {
      if (output.statistics === true) return (await import('./statistics.js')).statisticsText(output)
      const { chalkPaint, NO_PAINT, stylish } = await import('./stylish.js')
      return stylish(
        output,
        colorWanted(process.env, output.terminal === true) ? await chalkPaint() : NO_PAINT,
      )
    }
    case 'json':
      return (await import('./json.js')).json(output)
    case 'sarif':
      return (await import('./sarif.js')).sarif(output, packageVersion())
    case 'github':
      return (await import('./github.js')).github(output)
    case 'junit':
      return (await import('./junit.js')).junit(output)
  }
}
