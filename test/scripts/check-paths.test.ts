import assert from 'node:assert/strict'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { tempRoot } from '../helpers/tree.js'

const REPO = fileURLToPath(new URL('../../../', import.meta.url))
type Missing = (root: string, files?: string[]) => string[]

async function load(): Promise<Missing> {
  const mod = await import(pathToFileURL(join(REPO, 'scripts/check-paths.mjs')).href)
  return (mod as { missingPaths: Missing }).missingPaths
}

const { root, cleanup } = tempRoot('ongrid-check-paths-')
after(() => cleanup())

describe('the path check (scripts/check-paths.mjs)', () => {
  test('every path the docs and scripts name exists', async () => {
    assert.deepEqual((await load())(REPO), [])
  })

  test('a moved test file named by a script is found; globs and existing paths are not', async () => {
    mkdirSync(join(root, 'test/core/executor'), { recursive: true })
    writeFileSync(join(root, 'test/core/executor/executor.test.ts'), '')
    writeFileSync(
      join(root, 'mutation.mjs'),
      "tests: ['test/core/executor/executor.test.ts', 'test/core/executor-wait-delay.test.ts', 'src/ui/lint/*.ts']\n",
    )
    writeFileSync(join(root, 'doc.md'), 'See `test/core/executor/executor.test.ts` and examples/args.json.\n')
    assert.deepEqual((await load())(root, ['mutation.mjs', 'doc.md']), [
      'mutation.mjs: test/core/executor-wait-delay.test.ts',
    ])
  })

  test('a compiled test named by CI (build/test/….test.js) needs its source', async () => {
    writeFileSync(
      join(root, 'run'),
      'node --test build/test/core/executor/executor.test.js build/test/core/lint/rules/examples.test.js\n',
    )
    assert.deepEqual((await load())(root, ['run']), [
      'run: build/test/core/lint/rules/examples.test.js (no test/core/lint/rules/examples.test.ts)',
    ])
  })
})
