import assert from 'node:assert/strict'
import { afterEach, describe, test } from 'node:test'
import { cleanup, render } from 'ink-testing-library'
import type { InitAnswers } from '../../../src/core/init/options.js'
import { Wizard, type WizardTemplate } from '../../../src/ui/init/wizard.js'
import { until, waitFor } from '../../helpers/until.js'

const TEMPLATES: WizardTemplate[] = [
  { name: 'bash', description: 'bash 4+ script', envAllow: [] },
  { name: 'go', description: 'Go program', envAllow: [] },
  { name: 'node', description: 'Node.js ES module', envAllow: ['PATH'] },
  { name: 'python', description: 'Python 3 script', envAllow: ['PATH'] },
]

const KEY = { enter: '\r', backspace: '\x7f', up: '\x1b[A', down: '\x1b[B', esc: '\x1b', ctrlC: '\x03' }

function wizard(props: Partial<Parameters<typeof Wizard>[0]> = {}) {
  const result: { answers: InitAnswers | null; aborted: boolean } = { answers: null, aborted: false }
  const app = render(
    <Wizard
      templates={TEMPLATES}
      onDone={(a) => {
        result.answers = a
      }}
      onAbort={() => {
        result.aborted = true
      }}
      {...props}
    />,
  )
  const type = async (...keys: string[]) => {
    for (const k of keys) {
      const frames = app.frames.length
      app.stdin.write(k)
      // At most 300 ms: a key that changes nothing renders nothing.
      await waitFor(() => app.frames.length > frames, 300, 5)
    }
  }
  const typeNow = (...keys: string[]) => {
    for (const k of keys) app.stdin.write(k)
  }
  const frame = () => app.lastFrame() ?? ''
  /** ink takes keys once its input handler listens on stdin (after the first render's effects). */
  const ready = () =>
    until(
      'the wizard to listen for keys',
      () => app.frames.length > 0 && app.stdin.listenerCount('readable') > 0,
    )
  return { type, typeNow, frame, result, ready }
}

describe('init wizard', () => {
  afterEach(() => cleanup())

  test('keys that arrive together are each handled: a held Backspace, Ctrl-U then text, a paste', async () => {
    const w = wizard()
    await w.ready()
    await w.type('check_portXYZ') // one chunk, as a paste is
    assert.match(w.frame(), /\? name {12}check_portXYZ/)
    await w.type(KEY.backspace.repeat(3)) // three Backspaces in one chunk delete three
    assert.match(w.frame(), /\? name {12}check_port\s/)
    await w.type(KEY.backspace.repeat(10)) // ten, ten
    assert.match(w.frame(), /\? name\s*\n/)
    await w.type('wrong')
    await w.type('\x15disk_usage') // Ctrl-U and the text after it, together
    assert.match(w.frame(), /\? name {12}disk_usage\s/)
    await w.type(`${KEY.backspace.repeat(5)}stats${KEY.enter}Shows disk usage per mount point.${KEY.enter}`)
    assert.match(w.frame(), /✔ name {12}disk_stats/)
    assert.match(w.frame(), /✔ description {5}Shows disk usage per mount point\./)
    await w.type(`${KEY.down}${KEY.down}${KEY.enter}`) // a select's keys in one chunk too
    assert.match(w.frame(), /✔ class {11}dangerous/)
  })

  test('typed answers; a bad name is refused with the loader’s message, then corrected', async () => {
    const w = wizard()
    await w.ready()
    assert.match(w.frame(), /\? name\s*\n {18}lower_snake \[a-z0-9_\]: the key the manager registers$/)
    await w.type('Check')
    assert.match(w.frame(), /✘ name "Check" must be lower_snake \[a-z0-9_\]/) // live, as typed
    await w.type(KEY.enter)
    assert.match(w.frame(), /\? name {12}Check/) // refused: still asking
    assert.match(w.frame(), /✘ name "Check" must be lower_snake \[a-z0-9_\]/)
    await w.type(...Array(5).fill(KEY.backspace), 'check_port')
    assert.doesNotMatch(w.frame(), /✘/)
    assert.match(w.frame(), /the pack goes into check-port\//)
    await w.type(KEY.enter)
    assert.match(w.frame(), /✔ name {12}check_port/)

    await w.type(KEY.enter) // no default description: the loader's message
    assert.match(w.frame(), /✘ description required/)
    await w.type('Check a port')
    assert.match(w.frame(), /warning: 12 characters: lint wants at least 20/)
    await w.type(' on a host, before a deploy.', KEY.enter)

    assert.match(w.frame(), /❯ safe {7}reaches the LLM/)
    assert.match(w.frame(), / {2}mutating {3}needs a human/)
    assert.match(w.frame(), / {2}dangerous {2}refused/)
    await w.type(KEY.down, KEY.enter)
    assert.match(w.frame(), /✔ class {11}mutating/)

    assert.match(w.frame(), /\? category {8}external/) // the default, shown
    await w.type('network', KEY.enter)
    assert.match(w.frame(), /\? timeout_seconds 30/) // mutating: the manager's 30 s
    await w.type('0')
    assert.match(w.frame(), /✘ must be whole seconds from 1 to 86400 \(1s to 24h\), not "0"/)
    await w.type(KEY.backspace, '20', KEY.enter)

    assert.match(w.frame(), /❯ python/) // the default template
    await w.type(KEY.up, KEY.enter)
    assert.match(w.frame(), /\? env_allow {7}PATH/) // node's default
    await w.type('HOME')
    assert.match(w.frame(), /warning: the node template needs PATH/)
    await w.type(...Array(4).fill(KEY.backspace), KEY.enter)
    assert.match(
      w.frame(),
      /\? param\s*\n {18}a param the skill takes \(an identifier\); Enter with none: no params/,
    )
    assert.equal(w.result.answers, null)
    await w.type(KEY.enter)

    assert.deepEqual(w.result.answers, {
      name: 'check_port',
      description: 'Check a port on a host, before a deploy.',
      class: 'mutating',
      category: 'network',
      timeoutSeconds: 20,
      template: 'node',
      envAllow: ['PATH'],
      params: [],
    })
    assert.match(w.frame(), /✔ env_allow {7}PATH/)
  })

  test('defaults from NAME and flags; Enter takes each', async () => {
    const w = wizard({
      initial: { name: 'disk_usage', description: 'Report disk usage of a mounted filesystem.' },
    })
    await w.ready()
    await w.type(...Array(8).fill(KEY.enter))
    assert.deepEqual(w.result.answers, {
      name: 'disk_usage',
      description: 'Report disk usage of a mounted filesystem.',
      class: 'safe',
      category: 'external',
      timeoutSeconds: 15,
      template: 'python',
      envAllow: ['PATH'],
      params: [],
    })
  })

  test('params: asked one by one (name, type, description, required) until an empty name', async () => {
    const w = wizard({
      initial: { name: 'list_files', description: 'List the files under a root path, with their sizes.' },
    })
    await w.ready()
    await w.type(...Array(7).fill(KEY.enter))
    assert.match(w.frame(), /\? param/)
    await w.type('root-dir')
    assert.match(w.frame(), /✘ param name "root-dir" must be an identifier/)
    await w.type(KEY.enter) // refused
    assert.match(w.frame(), /\? param {11}root-dir/)
    await w.type(KEY.backspace.repeat(4), KEY.enter)
    assert.match(w.frame(), /\? {3}type/)
    assert.match(w.frame(), /❯ string/)
    await w.type(KEY.enter, 'Where to start: an absolute path', KEY.enter)
    assert.match(w.frame(), /param {11}root: string — Where to start: an absolute path/)
    assert.match(w.frame(), /❯ yes/)
    await w.type(KEY.enter)
    assert.match(w.frame(), /✔ param {11}root: string, required — Where to start: an absolute path/)
    assert.match(w.frame(), /another param; Enter with none: that is all/)
    await w.type('root', KEY.enter) // given already
    assert.match(w.frame(), /✘ param "root" is given already/)
    await w.type(KEY.backspace.repeat(4), 'depth', KEY.enter, KEY.down, KEY.enter)
    assert.match(w.frame(), /warning: what the LLM reads about it: without one, lint warns/)
    await w.type(KEY.enter, KEY.down, KEY.enter) // no description; not required
    assert.match(w.frame(), /✔ param {11}depth: integer\n/)
    assert.equal(w.result.answers, null)
    await w.type(KEY.enter)
    assert.deepEqual((w.result.answers as InitAnswers | null)?.params, [
      { name: 'root', type: 'string', description: 'Where to start: an absolute path', required: true },
      { name: 'depth', type: 'integer', description: '', required: false },
    ])
  })

  test('params given with --param: none is asked for', async () => {
    const params = [{ name: 'path', type: 'string' as const, description: 'A path', required: true }]
    const w = wizard({
      initial: { name: 'disk_usage', description: 'Report disk usage of a mounted filesystem.', params },
    })
    await w.ready()
    await w.type(...Array(7).fill(KEY.enter))
    assert.deepEqual(w.result.answers?.params, params)
    assert.doesNotMatch(w.frame(), /param/)
  })

  test('a bad NAME given as the default shows the loader’s message at once', async () => {
    const w = wizard({ initial: { name: 'Disk-Usage' } })
    await w.ready()
    assert.match(
      w.frame(),
      /\? name {12}Disk-Usage\n {18}✘ name "Disk-Usage" must be lower_snake \[a-z0-9_\]/,
    )
    await w.type(KEY.enter)
    assert.match(w.frame(), /\? name/)
    assert.equal(w.result.answers, null)
  })

  test('a builtin name, or a name whose dir is taken, is refused with why', async () => {
    const w = wizard({
      dirFor: (name) => ({
        dir: name,
        problem: name === 'taken' ? '/x/taken exists and is not empty' : null,
      }),
    })
    await w.ready()
    await w.type('web_search', KEY.enter)
    assert.match(w.frame(), /✘ name "web_search" is taken by a builtin skill of the manager/)
    await w.type(...Array(10).fill(KEY.backspace), 'taken', KEY.enter)
    assert.match(w.frame(), /✘ \/x\/taken exists and is not empty/)
    assert.match(w.frame(), /\? name/)
  })

  test('keys faster than it renders are each taken once, in order', async () => {
    const w = wizard()
    await w.ready()
    // No pause between keys, as from a fast typist or a terminal that batches them.
    w.typeNow('fast_one', KEY.enter, 'Typed faster than ink renders it, all of it.', KEY.enter, KEY.down)
    w.typeNow(KEY.down, KEY.enter, KEY.enter, '9', KEY.enter, KEY.enter, KEY.enter, KEY.enter)
    await until('the last answer', () => w.result.answers !== null)
    assert.deepEqual(w.result.answers, {
      name: 'fast_one',
      description: 'Typed faster than ink renders it, all of it.',
      class: 'dangerous',
      category: 'external',
      timeoutSeconds: 9, // typed over the default (30), not appended to it
      template: 'python',
      envAllow: ['PATH'],
      params: [],
    })
  })

  for (const [what, key] of [
    ['Esc', KEY.esc],
    ['Ctrl-C', KEY.ctrlC],
  ] as const) {
    test(`${what} aborts, with nothing answered`, async () => {
      const w = wizard()
      await w.ready()
      await w.type('half', key)
      assert.equal(w.result.aborted, true)
      assert.equal(w.result.answers, null)
    })
  }
})
