import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import type { BuildOutcome } from '../../../src/core/init/build-step.js'
import { displayDir, initPack, nextCommands, shellWord } from '../../../src/core/init/init.js'
import type { InitAnswers } from '../../../src/core/init/options.js'
import { loadTemplate, type Template } from '../../../src/core/init/templates.js'
import { makeTree, tempRoot } from '../../helpers/tree.js'

const ANSWERS: InitAnswers = {
  name: 'made_skill',
  description: 'Report something useful about the manager host.',
  class: 'safe',
  category: 'external',
  timeoutSeconds: 15,
  template: './tpl',
  envAllow: [],
}

describe('initPack with a build step', () => {
  let R = ''
  let cleanup = () => {}
  let t: Template
  before(() => {
    ;({ root: R, cleanup } = tempRoot())
    makeTree(R, {
      'tpl/template.json': JSON.stringify({
        description: 'Built by make.sh',
        entry: 'bin/{{name}}',
        build: { script: 'make.sh', requires: ['sh'] },
        schema: { type: 'object', properties: {} },
        example_args: {},
      }),
      'tpl/files/make.sh': {
        exec: '#!/bin/sh\nmkdir -p bin && printf "#!/bin/sh\\necho {}\\n" > bin/{{name}} && chmod +x bin/{{name}}\n',
      },
      'tpl/files/README.md': '# {{name}}\n',
    })
    t = loadTemplate('./tpl', R)
  })
  after(() => cleanup())

  const fake =
    (outcome: BuildOutcome, make = false) =>
    async (_step: unknown, dir: string) => {
      if (make) makeTree(dir, { 'bin/made_skill': { exec: '#!/bin/sh\necho {}\n' } })
      return outcome
    }

  test('the real build step runs in the staged pack; its entry moves in with the rest', async () => {
    const r = await initPack({ answers: ANSWERS, template: t, dir: join(R, 'real') })
    assert.equal(r.build?.status, 'built')
    assert.equal(r.entryPresent, true)
    assert.deepEqual(r.written, [
      'skill.json',
      'README.md',
      'make.sh',
      'examples/args.json',
      'bin/made_skill',
    ])
    assert.equal(readFileSync(join(R, 'real/bin/made_skill'), 'utf8'), '#!/bin/sh\necho {}\n')
  })

  test('a tool missing from PATH: written without the entry, with a warning and the build as the first next step', async () => {
    const r = await initPack({
      answers: ANSWERS,
      template: t,
      dir: join(R, 'missing'),
      build: fake({ status: 'missing-tool', tool: 'sh' }),
    })
    assert.equal(r.entryPresent, false)
    assert.match(r.warnings.join('\n'), /sh is not on PATH: bin\/made_skill is not built yet/)
    assert.equal(nextCommands(r, t, R)[0], '(cd missing && ./make.sh)')
  })

  test('a build that makes no entry counts as failed', async () => {
    const r = await initPack({
      answers: ANSWERS,
      template: t,
      dir: join(R, 'noentry'),
      build: fake({ status: 'built', output: '' }),
    })
    assert.deepEqual(r.build, {
      status: 'failed',
      code: 0,
      output: 'make.sh succeeded but did not make the entry bin/made_skill',
    })
    assert.ok(existsSync(join(R, 'noentry/make.sh')))
  })

  test('a pack dir reached through a symlink is written where it points', async () => {
    mkdirSync(join(R, 'real-target'))
    makeTree(R, { link: { link: 'real-target' } })
    const r = await initPack({
      answers: ANSWERS,
      template: t,
      dir: join(R, 'link'),
      build: fake({ status: 'built', output: '' }, true),
    })
    assert.equal(r.dir, join(R, 'real-target'))
    assert.ok(existsSync(join(R, 'real-target/bin/made_skill')))
  })
})

describe('next commands', () => {
  test('dirs are shown relative to cwd when inside it, quoted for the shell when needed', () => {
    assert.equal(displayDir('/a/b/c', '/a'), 'b/c')
    assert.equal(displayDir('/x/y', '/a'), '/x/y')
    assert.equal(displayDir('/a', '/a'), '.')
    assert.equal(shellWord('my pack'), "'my pack'")
    assert.equal(shellWord("it's"), "'it'\\''s'")
  })

  test('the pack in cwd itself is copied by its absolute path', () => {
    const t = loadTemplate('bash')
    const r = {
      dir: '/w/pack',
      entry: 'run.sh',
      written: [],
      kept: [],
      skipped: [],
      build: null,
      entryPresent: true,
      warnings: [],
    }
    assert.deepEqual(nextCommands(r, t, '/w/pack'), [
      "$EDITOR ./run.sh ./skill.json   # replace the sample (a TCP port checker) with the skill's work, and the schema with its params",
      'ongrid-skill validate .',
      'ongrid-skill run . --args-file ./examples/args.json',
      'sudo cp -r /w/pack /etc/ongrid/skills/   # or any dir in ONGRID_SKILLS_EXTERNAL_DIRS; then restart the manager',
    ])
    assert.equal(nextCommands({ ...r, dir: '/w/my pack' }, t, '/w')[1], "ongrid-skill validate 'my pack'")
  })
})
