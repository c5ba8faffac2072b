import { terminalText } from '../terminal.js'
import { counts, displayPath, type LintOutput, messageWithHint, newFindings, plural } from './model.js'

/**
 * Workflow-command escaping of the message (data), as actions/toolkit's escapeData: `%` first, so
 * that `%0A` in a value stays text. The runner splits its log on CR and LF only, so after this no
 * value can end the annotation's line or start a command (`::add-mask::`, `::stop-commands::`).
 */
function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

/** Workflow-command escaping of a property value. */
function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C')
}

const COMMAND = { error: 'error', warn: 'warning', info: 'notice' } as const

/**
 * GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=RULE::message`, the file
 * relative to the repository root (as GitHub resolves it), not to the working dir. Printed on a
 * terminal, the other control characters are escaped as %q would (the runner gets them as they are).
 */
export function github(o: LintOutput): string {
  let out = ''
  for (const f of o.files) {
    const file = escapeProperty(displayPath(f.file, o.repo))
    for (const x of newFindings(o, f.findings)) {
      const message = messageWithHint(x)
      out += `::${COMMAND[x.severity]} file=${file},line=${x.line},col=${x.column},title=${escapeProperty(x.ruleId)}::${escapeData(message)}\n`
    }
  }
  // Baselined findings are not annotated; entries no finding matches any more are said once.
  const fixed = counts(o).fixed ?? 0
  if (o.baseline && fixed > 0) {
    const text = `${plural(fixed, 'baselined finding')} no longer found in ${o.baseline.path}: drop ${fixed === 1 ? 'it' : 'them'} with --prune-baseline`
    out += `::notice title=${escapeProperty('ongrid-skill baseline')}::${escapeData(text)}\n`
  }
  return terminalText(out, o.terminal === true)
}
