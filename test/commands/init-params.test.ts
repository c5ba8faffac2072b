import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { onPath } from '../../src/core/init/build-step.js'
import type { CliResult } from '../helpers/cli.js'
import { makeTree, tempRoot } from '../helpers/tree.js'
import { assertNoFindings, assertReadmeExamplePasses, initCli as cli } from './init-helpers.js'

const DESCRIPTION = 'List the files under a root path, optionally recursively, with their sizes.'
const TEMPLATES = ['bash', 'python', 'node', 'go'] as const
/** Text that would break code if it were pasted into it. */
const NASTY = `Root path "$(touch /tmp/x)" \\ \`x\` '; it's {{name}}`
const PARAMS = [
  `root:string:${NASTY}`,
  'depth:integer:How deep to go: 0 for the root only',
  'recursive:boolean:Descend into subdirs',
  'ratio:number:A share from 0 to 1',
  'tags:array:Tags to add',
  'opts:object:More options',
]
const SAMPLE = { root: 'example', depth: 1, recursive: true, ratio: 0.5, tags: [], opts: {} }

let R = ''
let cleanup = () => {}
before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-skill-init-params-'))
})
after(() => cleanup())

describe('init --param, for every template', { concurrency: true }, () => {
  for (const t of TEMPLATES) {
    const runtime = { bash: 'bash', python: 'python3', node: 'node', go: 'go' }[t]
    const skip =
      !onPath(runtime) && !(t === 'go' && process.env.ONGRID_REQUIRE_GO) ? `${runtime} is not on PATH` : false
    describe(`init --template ${t} --param …`, { skip, concurrency: 1 }, () => {
      const name = `list_${t}`
      let parent = ''
      let dir = ''
      let init: CliResult
      before(async () => {
        parent = join(R, t)
        dir = join(parent, `list-${t}`)
        mkdirSync(parent)
        const params = PARAMS.flatMap((p) => ['--param', p])
        init = await cli(
          ['init', name, '-y', '-d', DESCRIPTION, '-t', t, ...params, '--required', 'root,depth'],
          { cwd: parent },
        )
      })

      test('the schema, examples/args.json and tests/cases.json follow the params', () => {
        assert.equal(init.code, 0, init.stderr)
        assert.equal(init.stderr, '')
        const m = JSON.parse(readFileSync(join(dir, 'skill.json'), 'utf8'))
        assert.deepEqual(m.schema, {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: {
            root: { type: 'string', description: NASTY },
            depth: { type: 'integer', description: 'How deep to go: 0 for the root only' },
            recursive: { type: 'boolean', description: 'Descend into subdirs' },
            ratio: { type: 'number', description: 'A share from 0 to 1' },
            tags: { type: 'array', description: 'Tags to add' },
            opts: { type: 'object', description: 'More options' },
          },
          required: ['root', 'depth'],
          additionalProperties: false,
        })
        assert.deepEqual(JSON.parse(readFileSync(join(dir, 'examples/args.json'), 'utf8')), SAMPLE)
        const cases = JSON.parse(readFileSync(join(dir, 'tests/cases.json'), 'utf8'))
        assert.deepEqual(
          cases.map((c: { name: string }) => c.name),
          [
            'answers the sample args',
            'refuses an unknown field',
            'refuses args without root',
            'refuses root of the wrong type',
          ],
        )
        // The port checker is gone: no host, no port anywhere in the code or the README.
        const source = readFileSync(join(dir, t === 'go' ? 'main.go' : m.entry), 'utf8')
        assert.doesNotMatch(source, /\bhost\b|\bport\b/i)
        assert.doesNotMatch(readFileSync(join(dir, 'README.md'), 'utf8'), /\bport\b/)
        // Descriptions are data: in skill.json and the README, never in the code.
        assert.ok(!source.includes('touch'), 'a description reached the code')
        assert.match(
          readFileSync(join(dir, 'README.md'), 'utf8'),
          /\| `depth` \| integer, required \| How deep/,
        )
        assert.match(
          init.stdout,
          new RegExp(
            `\\$EDITOR list-${t}/${t === 'go' ? 'main\\.go' : m.entry} +# do the skill's work where the sample says so`,
          ),
        )
        assert.match(init.stdout, new RegExp(`\n  ongrid-skill test list-${t} `))
      })

      test('validate and lint report nothing', async () => {
        assertNoFindings(await cli(['validate', dir, '--json'], { cwd: parent }), 'validate')
        assertNoFindings(await cli(['lint', dir, '--json'], { cwd: parent }), 'lint')
      })

      test('its own cases pass', async () => {
        const r = await cli(['test', dir, '--format', 'json'], { cwd: parent })
        assert.equal(r.code, 0, r.stderr + r.stdout)
        const doc = JSON.parse(r.stdout)
        assert.equal(doc.summary.passed, 4)
        assert.equal(doc.summary.failed, 0)
      })

      test("the README's way to add a case works: its example case, added, passes", () =>
        assertReadmeExamplePasses(dir, parent, 5))

      test('run with examples/args.json answers with the args', async () => {
        const r = await cli(
          ['run', dir, '--args-file', join(dir, 'examples/args.json'), '--json', '--no-audit'],
          { cwd: parent },
        )
        assert.equal(r.code, 0, r.stderr + r.stdout)
        assert.deepEqual(JSON.parse(r.stdout).result, { args: SAMPLE })
      })

      test('values of every type come back as given; nested text with brackets and quotes too', async () => {
        const args = {
          root: 'a "b" \\ c\n\u00e9 ]}',
          depth: -3,
          recursive: false,
          ratio: -1.25e-3,
          tags: ['x]', { y: '}"' }, [1, 2]],
          opts: { a: [{ b: null }], 'c]': 'd' },
        }
        const r = await cli(['run', dir, '--args', JSON.stringify(args), '--json', '--no-audit'], {
          cwd: parent,
        })
        assert.equal(r.code, 0, r.stderr + r.stdout)
        assert.deepEqual(JSON.parse(r.stdout).result, { args })
      })

      test('bad args: the entry exits 1 naming the field, for each type', async () => {
        const base = { root: 'r', depth: 0 }
        const cases: [unknown, string][] = [
          [{ depth: 0 }, 'root: required'],
          [{ root: 'r' }, 'depth: required'],
          [{ ...base, zzz: 1, aaa: 2 }, 'aaa: unknown field'],
          [{ ...base, root: 1 }, 'root: must be a string'],
          [{ ...base, depth: 1.5 }, 'depth: must be an integer'],
          [{ ...base, depth: '1' }, 'depth: must be an integer'],
          [{ ...base, recursive: 1 }, 'recursive: must be true or false'],
          [{ ...base, ratio: 'x' }, 'ratio: must be a number'],
          [{ ...base, tags: {} }, 'tags: must be an array'],
          [{ ...base, opts: [] }, 'opts: must be an object'],
          [{ ...base, opts: null }, 'opts: must be an object'],
        ]
        const runs = await Promise.all(
          cases.map(([args]) =>
            cli(['run', dir, '--args', JSON.stringify(args), '--no-validate', '--no-audit'], { cwd: parent }),
          ),
        )
        cases.forEach(([args, message], i) => {
          const r = runs[i]
          assert.equal(r.code, 1, `${JSON.stringify(args)}: ${r.stderr}`)
          assert.ok(
            r.stderr.includes(
              `error: subprocess skill ${name}: exit 1 (stderr: ${name}: invalid args: ${message})`,
            ),
            `${JSON.stringify(args)}: ${r.stderr}`,
          )
        })
      })
    })
  }
})

describe('init --param: usage errors and limits', () => {
  let W = ''
  before(() => {
    W = join(R, 'usage')
    mkdirSync(W)
  })
  const cases: [string[], RegExp][] = [
    [
      ['--param', 'path'],
      /^ongrid-skill: --param: "path" is not NAME:TYPE\[:DESCRIPTION\]\n.*e\.g\. --param 'path:string:Root path'/,
    ],
    [
      ['--param', 'path:strng'],
      /^ongrid-skill: --param: param type "strng" is not one of string, integer, number, boolean, array, object\n.*did you mean "string"\?/,
    ],
    [['--param', 'a-b:string'], /^ongrid-skill: --param: param name "a-b" must be an identifier/],
    [['--param', '1st:string'], /^ongrid-skill: --param: param name "1st" must be an identifier/],
    [['--param', 'a:string', '--param', 'a:integer'], /^ongrid-skill: --param: param "a" is given twice\n$/],
    [
      ['--param', 'path:string', '--required', 'pth'],
      /^ongrid-skill: --param: --required pth: not a param \(the params: path\)\n.*did you mean "path"\?/,
    ],
    [['--required', 'path'], /^ongrid-skill: --param: --required path: no --param names it\n$/],
    [['--param', 'a:string:one\u0007bell'], /^ongrid-skill: --param: a param description must be one line/],
  ]
  for (const [flags, expected] of cases) {
    test(`${flags.join(' ')}: exit 2, one error, nothing written`, async () => {
      const r = await cli(['init', 'some_skill', '-y', '-d', DESCRIPTION, ...flags], { cwd: W })
      assert.equal(r.code, 2, r.stderr)
      assert.match(r.stderr, expected)
      assert.equal(r.stdout, '')
      assert.ok(!existsSync(join(W, 'some-skill')))
    })
  }

  test('a template without a params/ dir cannot take params', async () => {
    makeTree(join(W, 'tpl'), {
      'template.json': JSON.stringify({
        description: 'own',
        entry: 'run.sh',
        schema: { type: 'object' },
        example_args: {},
      }),
      'files/run.sh': '#!/bin/sh\necho {}\n',
      'files/README.md': '# {{name}}\n',
    })
    const r = await cli(['init', 'own', '-y', '-d', DESCRIPTION, '-t', './tpl', '--param', 'a:string:A'], {
      cwd: W,
    })
    assert.equal(r.code, 2, r.stderr)
    assert.match(r.stderr, /^ongrid-skill: template tpl has no params\/ dir: it cannot take params/)
    assert.ok(!existsSync(join(W, 'own')))
  })

  test('a param without a description: written, with a warning that lint will say so', async () => {
    const r = await cli(['init', 'bare', '-y', '-d', DESCRIPTION, '-t', 'bash', '--param', 'a:string'], {
      cwd: W,
    })
    assert.equal(r.code, 0, r.stderr)
    assert.match(
      r.stderr,
      /^warning: param a has no description: lint warns \(schema\/property-description\)/,
    )
    const m = JSON.parse(readFileSync(join(W, 'bare/skill.json'), 'utf8'))
    assert.deepEqual(m.schema.properties, { a: { type: 'string' } })
    assert.equal(m.schema.required, undefined)
    const t = await cli(['test', 'bare', '--format', 'json'], { cwd: W })
    assert.equal(JSON.parse(t.stdout).summary.passed, 3, t.stdout)
  })
})

describe('init --param and --required take one value each', () => {
  test('the name after them is the name, not one more param', async () => {
    const dir = join(R, 'after-flags')
    const r = await cli(
      [
        'init',
        '--param',
        'root:string',
        '--required',
        'root',
        'after_flags',
        '-y',
        '-d',
        DESCRIPTION,
        '--dir',
        dir,
      ],
      { cwd: R },
    )
    assert.equal(r.code, 0, r.stderr)
    const m = JSON.parse(readFileSync(join(dir, 'skill.json'), 'utf8'))
    assert.equal(m.name, 'after_flags')
    assert.deepEqual(Object.keys(m.schema.properties), ['root'])
    assert.deepEqual(m.schema.required, ['root'])
  })
})

describe('init --param: names that are Object.prototype’s are params like any other', {
  concurrency: true,
}, () => {
  /** `__proto__`, `constructor` and `prototype`: as the manager sees them, plain keys. */
  const OWN = ['__proto__:string:A proto', 'constructor:integer:A count', 'prototype:object:More']
  for (const t of TEMPLATES) {
    const runtime = { bash: 'bash', python: 'python3', node: 'node', go: 'go' }[t]
    const skip =
      !onPath(runtime) && !(t === 'go' && process.env.ONGRID_REQUIRE_GO) ? `${runtime} is not on PATH` : false
    test(`--template ${t}: in the schema, the samples, the entry’s checks and its answer`, {
      skip,
    }, async () => {
      const parent = join(R, `proto-${t}`)
      mkdirSync(parent)
      const dir = join(parent, 'proto')
      const init = await cli(
        [
          'init',
          `proto_${t}`,
          '-y',
          '-d',
          DESCRIPTION,
          '-t',
          t,
          ...OWN.flatMap((p) => ['--param', p]),
          '--required',
          '__proto__',
          '--dir',
          dir,
        ],
        { cwd: parent },
      )
      assert.equal(init.code, 0, init.stderr)
      const m = JSON.parse(readFileSync(join(dir, 'skill.json'), 'utf8'))
      assert.equal(
        JSON.stringify(m.schema.properties),
        '{"__proto__":{"type":"string","description":"A proto"},"constructor":{"type":"integer","description":"A count"},"prototype":{"type":"object","description":"More"}}',
      )
      assert.deepEqual(m.schema.required, ['__proto__'])
      const sample = '{"__proto__":"example","constructor":1,"prototype":{}}'
      assert.equal(JSON.stringify(JSON.parse(readFileSync(join(dir, 'examples/args.json'), 'utf8'))), sample)
      assertNoFindings(await cli(['lint', dir, '--json'], { cwd: parent }), 'lint')
      // The cases go to the entry on stdin: it checks the three keys and answers with them.
      const tested = await cli(['test', dir, '--format', 'json'], { cwd: parent })
      assert.equal(tested.code, 0, tested.stderr + tested.stdout)
      assert.equal(JSON.parse(tested.stdout).summary.passed, 4)
      const r = await cli(['run', dir, '--args-file', join(dir, 'examples/args.json'), '--no-audit'], {
        cwd: parent,
      })
      assert.equal(r.code, 0, r.stderr + r.stdout)
      assert.equal(JSON.stringify(JSON.parse(r.stdout)), `{"args":${sample}}`)
      // ajv cannot check a schema naming `__proto__`: the entry's own check answers.
      const bad = await cli(['run', dir, '--args', '{"__proto__":1}', '--no-audit'], { cwd: parent })
      assert.match(bad.stderr, /invalid args: __proto__: must be a string/)
    })
  }
})
