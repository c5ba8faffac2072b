import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { tempRoot } from '../helpers/tree.js'

const REPO = fileURLToPath(new URL('../../../', import.meta.url))
const SCRIPT = join(REPO, 'scripts/new-rule.mjs')
const GOLDEN = 'test/fixtures/lint/golden/lint.sarif.json'

/** A copy of what the scaffold reads and writes, and what the new rule's test needs to compile and run. */
function copyRepo(to: string): void {
  for (const p of [
    'src',
    'test/core/lint',
    'test/helpers',
    GOLDEN,
    'tsconfig.json',
    'biome.json',
    'package.json',
  ]) {
    mkdirSync(join(to, p, '..'), { recursive: true })
    cpSync(join(REPO, p), join(to, p), { recursive: true })
  }
  symlinkSync(join(REPO, 'node_modules'), join(to, 'node_modules'))
}

function scaffold(root: string, ...args: string[]) {
  return spawnSync(process.execPath, [SCRIPT, ...args, '--root', root, '--no-build'], { encoding: 'utf8' })
}

/** The environment without the parent runner's channel, so the inner run reports on stdout. */
function withoutTestContext(): NodeJS.ProcessEnv {
  const env = { ...process.env }
  delete env.NODE_TEST_CONTEXT
  return env
}

interface SarifRule {
  id: string
}

describe('npm run new-rule (scripts/new-rule.mjs)', () => {
  let R = ''
  let cleanup = () => {}
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
  })
  after(() => cleanup())

  test('a best-practice rule: module, test, registry, severity line, SARIF golden; its test and docs follow', async () => {
    const root = join(R, 'bp')
    copyRepo(root)
    const goldenBefore = JSON.parse(readFileSync(join(root, GOLDEN), 'utf8'))
    const r = scaffold(root, 'practice/scaffold-probe', '--severity', 'info')
    assert.equal(r.status, 0, r.stderr)
    assert.match(r.stdout, /practice\/scaffold-probe \(info, best-practice\) written/)
    const module = readFileSync(join(root, 'src/core/lint/rules/practice-scaffold-probe.ts'), 'utf8')
    assert.match(module, /id: 'practice\/scaffold-probe'/)
    assert.match(module, /severity: 'info'/)
    assert.match(module, /why: /)
    assert.ok(existsSync(join(root, 'test/core/lint/rules/practice-scaffold-probe.test.ts')))
    const registry = readFileSync(join(root, 'src/core/lint/registry.ts'), 'utf8')
    assert.match(registry, /import practiceScaffoldProbe from '\.\/rules\/practice-scaffold-probe\.js'/)
    assert.match(registry, /\n {2}practiceScaffoldProbe,\n\] as Rule<Context>\[\]/)
    assert.match(
      readFileSync(join(root, 'test/core/lint/registry-severity.test.ts'), 'utf8'),
      /\['practice\/scaffold-probe', 'info'\],\n\]/,
    )
    const golden = JSON.parse(readFileSync(join(root, GOLDEN), 'utf8'))
    const rules: SarifRule[] = golden.runs[0].tool.driver.rules
    assert.equal(rules.at(-1)!.id, 'practice/scaffold-probe')
    assert.deepEqual(
      golden.runs[0].results,
      goldenBefore.runs[0].results,
      'appended last: no ruleIndex moves',
    )

    // Compiled (the new rule's test, the severity and example tests, the docs), then run.
    writeFileSync(
      join(root, 'tsconfig.probe.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        compilerOptions: { outDir: 'build', rootDir: '.' },
        include: [],
        files: [
          'test/core/lint/rules/practice-scaffold-probe.test.ts',
          'test/core/lint/registry-severity.test.ts',
          'src/ui/lint/rules-doc.ts',
          'src/ui/lint/sarif.ts',
          'src/core/lint/example-fix.ts',
        ],
      }),
    )
    const tsc = spawnSync(join(REPO, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.probe.json'], {
      cwd: root,
      encoding: 'utf8',
    })
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr)
    const run = spawnSync(
      process.execPath,
      [
        '--test',
        '--test-reporter=tap',
        'build/test/core/lint/rules/practice-scaffold-probe.test.js',
        'build/test/core/lint/registry-severity.test.js',
      ],
      { cwd: root, encoding: 'utf8', env: withoutTestContext() },
    )
    assert.equal(run.status, 0, run.stdout + run.stderr)
    assert.match(run.stdout, /# fail 0/)

    const url = (p: string) => pathToFileURL(join(root, 'build/src', p)).href
    const { RULES } = await import(url('core/lint/registry.js'))
    const { rulesDoc } = await import(url('ui/lint/rules-doc.js'))
    const { fixDiffsOf } = await import(url('core/lint/example-fix.js'))
    const { sarif } = await import(url('ui/lint/sarif.js'))
    const { ruleMeta } = await import(url('core/lint/rule-meta.js'))
    const doc: string = rulesDoc(RULES, await fixDiffsOf(RULES))
    assert.match(doc, /\| \[`practice\/scaffold-probe`\]\(#practice-scaffold-probe\) \| info \|/)
    assert.match(
      doc,
      /### `practice\/scaffold-probe`\n\nDefault severity: \*\*info\*\*[\s\S]*\nWhy: What goes wrong/,
    )
    // The golden's rule list is the one the registry now gives SARIF.
    const fresh = JSON.parse(
      sarif(
        {
          command: 'lint',
          files: [],
          rules: RULES.map(ruleMeta),
          ignored: 0,
          cwd: '/',
          repo: '/',
          failSeverity: 'error',
        },
        'X.Y.Z',
      ),
    )
    assert.deepEqual(rules, fresh.runs[0].tool.driver.rules)
  })

  test('a manager rule goes to MANAGER_RULES, and the golden’s later ruleIndexes move up by one', () => {
    const root = join(R, 'mgr')
    copyRepo(root)
    const before = JSON.parse(readFileSync(join(root, GOLDEN), 'utf8')).runs[0]
    const r = scaffold(root, 'run/scaffold-probe', '--severity', 'error')
    assert.equal(r.status, 0, r.stderr)
    assert.match(
      readFileSync(join(root, 'src/core/lint/registry-manager.ts'), 'utf8'),
      /\n {2}runScaffoldProbe,\n\]/,
    )
    assert.doesNotMatch(readFileSync(join(root, 'src/core/lint/registry.ts'), 'utf8'), /ScaffoldProbe/)
    const after = JSON.parse(readFileSync(join(root, GOLDEN), 'utf8')).runs[0]
    const at = after.tool.driver.rules.findIndex((x: SarifRule) => x.id === 'run/scaffold-probe')
    const managerCount = before.tool.driver.rules.filter(
      (x: { properties: { category: string } }) => x.properties.category !== 'best-practice',
    ).length
    assert.equal(at, managerCount)
    assert.equal(after.tool.driver.rules[at].properties.category, 'manager')
    for (const [i, res] of after.results.entries()) {
      const was = before.results[i].ruleIndex
      assert.equal(res.ruleIndex, was >= at ? was + 1 : was)
      assert.equal(after.tool.driver.rules[res.ruleIndex].id, res.ruleId)
    }
  })

  test('refuses a bad id, an unknown option and a rule that exists, writing nothing', () => {
    const root = join(R, 'bad')
    copyRepo(root)
    const registry = readFileSync(join(root, 'src/core/lint/registry.ts'), 'utf8')
    for (const args of [
      ['Practice/Foo'],
      ['practice'],
      ['practice/foo', '--severity', 'fatal'],
      ['practice/bom'],
    ]) {
      const r = scaffold(root, ...args)
      assert.equal(r.status, 2, args.join(' '))
      assert.match(r.stderr, /^new-rule: .+\n$/)
    }
    assert.equal(readFileSync(join(root, 'src/core/lint/registry.ts'), 'utf8'), registry)
    rmSync(root, { recursive: true, force: true })
  })
})
