import { xml } from '../xml.js'
import { displayPath, fails, isBaselined, type LintOutput, TOLERANT_FINDING } from './model.js'

/**
 * JUnit XML: one testsuite per file, one testcase per finding (a <failure> when it is at or
 * above the fail severity, else a passing case with the text in <system-out>), and one passing
 * testcase for a file without findings.
 */
export function junit(o: LintOutput): string {
  let tests = 0
  let failures = 0
  let skipped = 0
  let suites = ''
  for (const f of o.files) {
    const path = xml(displayPath(f.file, o.cwd))
    let cases = ''
    let suiteFailures = 0
    let suiteSkipped = 0
    if (f.findings.length === 0) {
      cases += `    <testcase classname="${path}" name="ongrid-skill ${o.command}" time="0"/>\n`
    }
    for (const x of f.findings) {
      const text = xml(
        `${displayPath(f.file, o.cwd)}:${x.line}:${x.column} ${x.severity} ${x.message}${x.hint ? `\nhint: ${x.hint}` : ''}${x.tolerant ? `\n${TOLERANT_FINDING}` : ''} (${x.ruleId})`,
      )
      const name = xml(`${x.ruleId} ${x.line}:${x.column}`)
      if (o.baseline && isBaselined(o, x)) {
        // Accepted by the baseline: skipped, with its text, never a failure.
        suiteSkipped++
        cases += `    <testcase classname="${path}" name="${name}" time="0">\n      <skipped message="${xml(`baselined (${o.baseline.path})`)}"/>\n      <system-out>${text}</system-out>\n    </testcase>\n`
      } else if (fails(x, o.failSeverity)) {
        suiteFailures++
        cases += `    <testcase classname="${path}" name="${name}" time="0">\n      <failure type="${x.severity}" message="${xml(x.message)}">${text}</failure>\n    </testcase>\n`
      } else {
        cases += `    <testcase classname="${path}" name="${name}" time="0">\n      <system-out>${text}</system-out>\n    </testcase>\n`
      }
    }
    const n = Math.max(1, f.findings.length)
    tests += n
    failures += suiteFailures
    skipped += suiteSkipped
    suites += `  <testsuite name="${path}" tests="${n}" failures="${suiteFailures}" errors="0" skipped="${suiteSkipped}" time="0">\n${cases}  </testsuite>\n`
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="ongrid-skill ${o.command}" tests="${tests}" failures="${failures}" errors="0"${skipped > 0 ? ` skipped="${skipped}"` : ''} time="0">\n${suites}</testsuites>\n`
}
