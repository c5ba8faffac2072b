// biome-ignore-all lint/suspicious/noTemplateCurlyInString: source text with template literals, as data
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { fileURLToPath, pathToFileURL } from 'node:url'

const REPO = fileURLToPath(new URL('../../../', import.meta.url))

type Files = Map<string, string>
interface CheckSource {
  sourceProblems: (root: string) => string[]
  duplicatedTexts: (files: Files) => string[]
  v8FlagSetters: (files: Files) => string[]
  ruleModules: (files: Files) => { problems: string[]; ids: string[] }
  engineNamesRule: (files: Files, ids: string[]) => string[]
  testTreeProblems: (
    tests: string[],
    exists: (p: string) => boolean,
    list: (p: string) => string[],
  ) => string[]
}

const load = async (): Promise<CheckSource> =>
  (await import(pathToFileURL(join(REPO, 'scripts/check-source.mjs')).href)) as CheckSource

describe('the source check (scripts/check-source.mjs)', () => {
  test('the tree has no problem', async () => {
    assert.deepEqual((await load()).sourceProblems(REPO), [])
  })

  test('texts: a copy in another file is seen, through templates, and not in imports or comments', async () => {
    const { duplicatedTexts } = await load()
    const files = new Map([
      [
        'core/a.ts',
        "import { x } from './some/long/module/path/name.js'\nexport const m = (k: string) => `subprocess skill ${k}: timed out`\n",
      ],
      ['cli/b.ts', '// subprocess skill x: timed out\nconst t = `subprocess skill ${key}: timed out`\n'],
      ['ui/c.ts', "import { x } from './some/long/module/path/name.js'\nconst short = 'a b'\n"],
    ])
    assert.deepEqual(duplicatedTexts(files), [
      'texts: "subprocess skill ${}: timed out" is written in cli/b.ts, core/a.ts',
    ])
    files.delete('cli/b.ts')
    assert.deepEqual(duplicatedTexts(files), [])
    // core/go repeats Go's own texts: a copy between two of its files is no problem.
    const go = new Map([
      ['core/go/a.ts', "const m = 'invalid character in string literal'\n"],
      ['core/go/b.ts', "const m = 'invalid character in string literal'\n"],
    ])
    assert.deepEqual(duplicatedTexts(go), [])
  })

  test('v8-flags: core may not set V8 flags; the CLI may', async () => {
    const { v8FlagSetters } = await load()
    const files = new Map([
      ['core/x.ts', "v8.setFlagsFromString('--expose-gc')\n"],
      ['cli/gc.ts', "v8.setFlagsFromString('--expose-gc')\n"],
    ])
    assert.deepEqual(v8FlagSetters(files), ["v8-flags: src/core/x.ts sets V8 flags: only the CLI's edge may"])
  })

  test('rule-modules: a rule in a module of another name, two in one, or one twice', async () => {
    const { ruleModules } = await load()
    const ok = ruleModules(new Map([['practice-bom.ts', "export default {\n  id: 'practice/bom',\n}\n"]]))
    assert.deepEqual(ok, { problems: [], ids: ['practice/bom'] })
    const bad = ruleModules(
      new Map([
        ['practice-bom.ts', "  id: 'practice/bom',\n  id: 'practice/other',\n"],
        ['util.ts', "  id: 'practice/bom',\n"],
      ]),
    )
    assert.deepEqual(bad.problems, [
      'rule-modules: rules/practice-bom.ts defines practice/bom, practice/other: one rule a file',
      'rule-modules: practice/other is defined in rules/practice-bom.ts, not rules/practice-other.ts',
      'rule-modules: practice/bom is defined in rules/util.ts, not rules/practice-bom.ts',
      'rule-modules: practice/bom is defined twice',
    ])
  })

  test('rule-ids: the engine names no rule id in code; a comment may', async () => {
    const { engineNamesRule } = await load()
    const files = new Map([
      ['engine.ts', "// e.g. 'practice/bom'\n/* 'practice/bom' */\nconst x = 1\n"],
      ['context.ts', "if (id === 'practice/bom') skip()\n"],
    ])
    assert.deepEqual(engineNamesRule(files, ['practice/bom']), [
      "rule-ids: src/core/lint/context.ts names practice/bom: read the rule's metadata instead",
    ])
  })

  test('test-tree: a test is named after its module, command or script; test/ mirrors src/', async () => {
    const { testTreeProblems } = await load()
    const tree = new Map<string, string[]>([
      ['src/core', ['glob.ts', 'lint']],
      ['src/core/lint', ['engine.ts', 'rules']],
      ['src/core/lint/rules', ['secret-token.ts', 'secret-private-key.ts', 'schema-top-type.ts']],
      ['src/commands', ['lint.ts', 'load-dirs.ts', 'marketplace']],
      ['src/commands/marketplace', ['pack.ts']],
      ['scripts', ['check-paths.mjs']],
    ])
    const exists = (p: string) =>
      tree.has(p) || [...tree].some(([d, names]) => names.some((n) => `${d}/${n}` === p))
    const list = (p: string) => tree.get(p) ?? []
    const good = [
      'package.test.ts',
      'core/glob.test.ts',
      'core/lint/engine-basics.test.ts',
      'core/lint/rules/secret-masked.test.ts',
      'commands/lint.test.ts',
      'commands/load-dirs-strict.test.ts',
      'commands/marketplace-pack-leftovers.test.ts',
      'commands/hardening.test.ts',
      'scripts/check-paths.test.ts',
      'differential/anything.test.ts',
    ]
    assert.deepEqual(testTreeProblems(good, exists, list), [])
    assert.deepEqual(
      testTreeProblems(
        [
          'core/basics.test.ts',
          'core/lint/rules/schema-deep.test.ts',
          'core/nothing/x.test.ts',
          'commands/themes.test.ts',
          'commands/sign.test.ts',
          'commands/x/lint.test.ts',
          'scripts/other.test.ts',
        ],
        exists,
        list,
      ),
      [
        'test-tree: test/core/basics.test.ts: name it <module>[-<aspect>] after a file or folder of src/core/',
        'test-tree: test/core/lint/rules/schema-deep.test.ts: name it <module>[-<aspect>] after a file or folder of src/core/lint/rules/',
        'test-tree: test/core/nothing/x.test.ts: src/core/nothing/ does not exist: test/ mirrors src/',
        'test-tree: test/commands/themes.test.ts: name it <command>[-<aspect>] (src/commands/), or list it in SHARED_BEHAVIOURS',
        'test-tree: test/commands/sign.test.ts: name it <command>[-<aspect>] (src/commands/), or list it in SHARED_BEHAVIOURS',
        'test-tree: test/commands/x/lint.test.ts: test/commands/ has no folders',
        'test-tree: test/scripts/other.test.ts: name it after the script it tests (scripts/<name>.mjs)',
      ],
    )
  })
})
