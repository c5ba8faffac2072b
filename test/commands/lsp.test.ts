import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { isDeepStrictEqual } from 'node:util'
import { BIN, REPO, runCli, runCliSync } from '../helpers/cli.js'
import { type Diag, frame, type LspClient, startLsp, stopLsp, unframe, uri } from '../helpers/lsp.js'
import { makeTree, tempRoot } from '../helpers/tree.js'
import { waitFor } from '../helpers/until.js'

/** A tree with findings of every kind: JSON, practice, cross-pack, SKILL.md, a case file, a config. */
function packs(root: string) {
  makeTree(root, {
    'skills/.ongrid-skill.yaml': 'rules:\n  practice/class-unset: error\n  schema/missing: off\n',
    'skills/a/skill.json':
      '{"name":"a","description":"A skill that does a thing.","entry":"run.sh","class":"safe"}',
    'skills/a/run.sh': '#!/bin/sh\necho {}\n',
    'skills/a/tests/x.json': '[{"name":"x","args":{},"expect":{"ok":true}}]',
    'skills/b/skill.json': '{"name":"a","description":"Dup.","entry":"run.sh"}',
    'skills/b/run.sh': { exec: '#!/bin/sh\n' },
    'skills/c/SKILL.md': '---\nname: c\ndescription: 5\nactivation:\n  mode: sometimes\n---\nbody\n',
  })
}

/**
 * The editor's position of lint's line:column (1-based; the column counts code points), worked
 * out from the file's text: lines split on \n (no \r in these files), UTF-16 units of the line's
 * first column-1 code points.
 */
function editorPosition(text: string, line: number, column: number) {
  const l = text.split('\n')[line - 1] ?? ''
  return { line: line - 1, character: [...l].slice(0, column - 1).join('').length }
}

interface LintFinding {
  rule_id: string
  severity: 'error' | 'warn' | 'info'
  line: number
  column: number
  message: string
  hint?: string
}

const SEVERITY = { error: 1, warn: 2, info: 3 }

/** lint --format json of `dir`, as diagnostics' comparable fields per absolute file. */
function lintAsDiagnostics(dir: string) {
  const r = runCliSync(['lint', dir, '--format', 'json'], { cwd: dir })
  assert.ok(r.code === 0 || r.code === 1, r.stderr)
  const doc = JSON.parse(r.stdout) as { files: { path: string; findings: LintFinding[] }[] }
  const out = new Map<string, unknown[]>()
  for (const f of doc.files) {
    const file = join(dir, f.path)
    const text = readFileSync(file, 'utf8')
    out.set(
      uri(file),
      f.findings.map((x) => ({
        code: x.rule_id,
        severity: SEVERITY[x.severity],
        message: x.hint ? `${x.message}\nhint: ${x.hint}` : x.message,
        start: editorPosition(text, x.line, x.column),
      })),
    )
  }
  return out
}

const comparable = (ds: Diag[]) =>
  ds.map((d) => ({ code: d.code, severity: d.severity, message: d.message, start: d.range.start }))

describe('lsp', () => {
  let t: { root: string; cleanup: () => void }
  const clients: LspClient[] = []
  const children: ChildProcess[] = []
  before(() => {
    t = tempRoot()
  })
  after(() => {
    for (const c of clients) c.child.kill('SIGKILL')
    for (const c of children) c.kill('SIGKILL')
    t.cleanup()
  })
  const start = async (root: string | null, o: Parameters<typeof startLsp>[1] = {}) => {
    const c = await startLsp(root, o)
    clients.push(c)
    return c
  }

  it('publishes what lint --format json finds in the same text, from the unsaved buffer', async () => {
    const root = join(t.root, 'same')
    packs(root)
    const skills = join(root, 'skills')
    const a = join(skills, 'a/skill.json')
    const c = await start(skills)
    // Unsaved: a JSON error after multi-byte characters (2- and 4-byte UTF-8, a surrogate pair).
    const typed =
      '{\n  "name": "a",\n  "description": "Dóes ä thing 😀 — now with ümlauts",\n  "entry": "run.sh",, \n}'
    await c.open(a, typed)
    const cases = join(skills, 'a/tests/x.json')
    const casesText = '[{"name":"x","args":{},"expect":{"exit":0}}]'
    await c.open(cases, casesText)
    const md = join(skills, 'c/SKILL.md')
    const mdText =
      '---\nname: c\ndescription: "ü 😀 short"\nactivation:\n  mode: sometimes\n  when: [1\n---\nbody\n'
    await c.open(md, mdText, 'markdown')
    const b = join(skills, 'b/skill.json')
    await c.waitDiagnostics(uri(a), (d) => d.some((x) => x.code === 'manager/parse'))
    await c.waitDiagnostics(uri(cases), (d) => d.some((x) => x.code === 'tests/unknown-key'))
    await c.waitDiagnostics(uri(md))
    await c.waitDiagnostics(uri(b))
    // The disk still has the old text: the findings came from the buffers.
    assert.ok(!readFileSync(a, 'utf8').includes('ümlauts'))
    writeFileSync(a, typed)
    writeFileSync(cases, casesText)
    writeFileSync(md, mdText)
    const expected = lintAsDiagnostics(skills)
    assert.ok(expected.size >= 4)
    assert.ok((expected.get(uri(md)) ?? []).length > 0)
    // Checks of the earlier buffers may still be publishing: wait for the last one to land.
    for (const [u, list] of expected) {
      await waitFor(() => isDeepStrictEqual(comparable(c.diagnostics.get(u) ?? []), list), 20_000)
      assert.deepEqual(comparable(c.diagnostics.get(u) ?? []), list, u)
    }
    // Each carries its rule's docs link and the tool's name.
    const parse = (c.diagnostics.get(uri(a)) ?? []).find((d) => d.code === 'manager/parse')
    assert.equal(
      parse?.codeDescription?.href,
      'https://github.com/ongridio/ongrid-skill/blob/main/docs/rules.md#manager-parse',
    )
    assert.equal(parse?.source, 'ongrid-skill')
    // Severity from the config above the file: class-unset raised to error, schema/missing off.
    const bs = c.diagnostics.get(uri(b)) ?? []
    assert.equal(bs.find((d) => d.code === 'practice/class-unset')?.severity, 1)
    assert.ok(!bs.some((d) => d.code === 'schema/missing'))
    assert.equal(await stopLsp(c), 0)
  })

  it('places a JSON error at the byte Go stopped at, in UTF-16 units, and the range covers the token', async () => {
    const root = join(t.root, 'utf16')
    makeTree(root, { 'p/skill.json': '{}', 'p/run.sh': { exec: '#!/bin/sh\n' } })
    const f = join(root, 'p/skill.json')
    const c = await start(root)
    await c.open(f, '{"name": "ä€😀", "x": tru}')
    const [d] = await c.waitDiagnostics(uri(f), (ds) => ds.some((x) => x.code === 'manager/parse'))
    // `{"name": "` is 10 units, ä€ 2, 😀 2 (a surrogate pair), `", "x": ` 8; Go stops at `}` after `tru`.
    assert.equal(d.code, 'manager/parse')
    assert.deepEqual(d.range, { start: { line: 0, character: 25 }, end: { line: 0, character: 26 } })
    assert.match(d.message, /invalid character '}' in literal true/)
    await c.change(f, '{"name": "ä€😀", "x": [1, "unterminated}', 2)
    const [e] = await c.waitDiagnostics(uri(f), (ds) => ds[0]?.message.includes('unexpected end') === true, 1)
    // …then `[1, ` 4 and `"unterminated}` 14: the end of the input, at 40.
    assert.deepEqual(e.range.start, { line: 0, character: 40 })
    assert.equal(await stopLsp(c), 0)
  })

  it('past a JSON error, what the tolerant read finds, after the manager’s verdict and marked so', async () => {
    const root = join(t.root, 'tolerant')
    makeTree(root, { 'p/skill.json': '{}', 'p/run.sh': { exec: '#!/bin/sh\n' } })
    const f = join(root, 'p/skill.json')
    const c = await start(root)
    // A trailing comma: the manager stops there; the class typo is only seen by the tolerant read.
    await c.open(
      f,
      '{"name": "p", "description": "A skill that does a thing well.", "entry": "run.sh", "class": "Safe",}',
    )
    const ds = await c.waitDiagnostics(uri(f), (d) => d.some((x) => x.code === 'manager/build'))
    assert.equal(ds[0].code, 'manager/parse')
    assert.doesNotMatch(ds[0].message, /tolerantly/)
    const build = ds.find((x) => x.code === 'manager/build')
    assert.ok(build)
    assert.match(build.message, /^class "Safe" invalid\n[\s\S]*read tolerantly past the manager's error/)
    assert.equal((build.data as { tolerant?: boolean }).tolerant, true)
    assert.equal(await stopLsp(c), 0)
  })

  it('checks again after a pause in typing, not per keystroke, and clears what was fixed', async () => {
    const root = join(t.root, 'debounce')
    makeTree(root, { 'p/skill.json': '{}', 'p/run.sh': { exec: '#!/bin/sh\n' } })
    const f = join(root, 'p/skill.json')
    const c = await start(root, { init: { debounceMs: 300 } })
    await c.open(f, '{')
    await c.waitDiagnostics(uri(f), (d) => d.some((x) => x.code === 'manager/parse'))
    const before = c.publishes.get(uri(f)) ?? 0
    const good = '{"name":"p","description":"A skill that does a thing well.","entry":"run.sh"}'
    for (let i = 1; i <= good.length; i++) await c.change(f, good.slice(0, i), i + 1)
    const d = await c.waitDiagnostics(uri(f), (ds) => !ds.some((x) => x.code === 'manager/parse'), before)
    assert.ok(d.length > 0, 'practice findings remain')
    // Checks run one after another: a publish for one more change comes after any check still
    // under way, so counting up to it sees every publish the typing caused, without a sleep.
    const typed = c.publishes.get(uri(f)) ?? 0
    await c.change(f, good, good.length + 2)
    await c.waitDiagnostics(uri(f), () => true, typed)
    // Typed in well under the pause: at most a check or two for 76 changes (and the one after).
    assert.ok((c.publishes.get(uri(f)) ?? 0) - before <= 3, `${c.publishes.get(uri(f))} publishes`)
    assert.equal(await stopLsp(c), 0)
  })

  it('checks again when a file it depends on changes on disk (didChangeWatchedFiles)', async () => {
    const root = join(t.root, 'watched')
    makeTree(root, {
      'p/skill.json':
        '{"name":"p","description":"A skill that does a thing well.","entry":"run.sh","class":"safe"}',
      'p/run.sh': '#!/bin/sh\n',
    })
    const f = join(root, 'p/skill.json')
    const c = await start(root)
    await c.open(f, readFileSync(f, 'utf8'))
    await c.waitDiagnostics(uri(f), (d) => d.some((x) => x.code === 'run/not-executable'))
    const n = c.publishes.get(uri(f)) ?? 0
    chmodSync(join(root, 'p/run.sh'), 0o755)
    await c.conn.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: uri(join(root, 'p/run.sh')), type: 2 }],
    })
    await c.waitDiagnostics(uri(f), (d) => !d.some((x) => x.code === 'run/not-executable'), n)
    assert.equal(await stopLsp(c), 0)
  })

  it('puts a config that cannot be used on the config file', async () => {
    const root = join(t.root, 'config')
    makeTree(root, { 'p/skill.json': '{}', 'p/run.sh': { exec: '#!/bin/sh\n' } })
    const cfg = join(root, '.ongrid-skill.yaml')
    writeFileSync(cfg, 'rules: {}\n')
    const c = await start(root)
    await c.open(cfg, 'rules:\n  practice/clas-unset: off\n', 'yaml')
    const [d] = await c.waitDiagnostics(uri(cfg), (ds) => ds.length > 0)
    assert.match(d.message, /unknown rule "practice\/clas-unset"/)
    assert.match(d.message, /hint: did you mean "practice\/class-unset"\?/)
    // At the id the line names: line 2, after two spaces.
    assert.deepEqual(d.range.start, { line: 1, character: 2 })
    await c.change(cfg, 'rules:\n  practice/class-unset: off\n', 2)
    await c.waitDiagnostics(uri(cfg), (ds) => ds.length === 0, 1)
    assert.equal(await stopLsp(c), 0)
  })

  it('gives a document sent in a message over 10 MiB one diagnostic saying so, and goes on', async () => {
    const root = join(t.root, 'huge')
    makeTree(root, { 'p/skill.json': '{}', 'p/run.sh': { exec: '#!/bin/sh\n' } })
    const f = join(root, 'p/skill.json')
    const c = await start(root)
    await c.open(f, `{"name":"${'a'.repeat(10 * 1024 * 1024)}"}`)
    const [d, ...rest] = await c.waitDiagnostics(uri(f), (ds) =>
      ds.some((x) => /not checked/.test(x.message)),
    )
    assert.deepEqual(rest, [])
    assert.match(
      d.message,
      /^not checked: the editor sent this document in a message of \d+ bytes, over the 10 MiB the server reads$/,
    )
    assert.equal(d.severity, 1)
    // Opened again with a text of its size: checked as usual.
    const n = c.publishes.get(uri(f)) ?? 0
    await c.open(f, '{')
    await c.waitDiagnostics(uri(f), (ds) => ds.some((x) => x.code === 'manager/parse'), n)
    assert.equal(await stopLsp(c), 0)
  })

  it('checks a document outside every workspace folder alone, never walking its dir', async () => {
    // file:///skill.json walked all of / (30k openat calls through /proc and /sys).
    const root = join(t.root, 'lone')
    makeTree(root, {
      'ws/p/skill.json': '{}',
      'outside/p/skill.json': '{"name":"p","description":"A skill that does a thing.","entry":"run.sh"}',
      'outside/p/run.sh': '#!/bin/sh\n',
      'outside/p/tests/x.json': '[]',
      'outside/p/sub/skill.json': '{',
      'outside/q/skill.json': '{',
    })
    const f = join(root, 'outside/p/skill.json')
    const c = await start(join(root, 'ws'))
    await c.open(f, readFileSync(f, 'utf8'))
    await c.waitDiagnostics(uri(f), (ds) => ds.some((x) => x.code === 'run/not-executable'))
    const tests = join(root, 'outside/p/tests/x.json')
    await c.open(tests, '[')
    await c.waitDiagnostics(uri(tests), (ds) => ds.length > 0)
    assert.equal(await stopLsp(c), 0)
    // Nothing below or beside the pack was checked.
    assert.equal(c.publishes.get(uri(join(root, 'outside/p/sub/skill.json'))), undefined)
    assert.equal(c.publishes.get(uri(join(root, 'outside/q/skill.json'))), undefined)
  })

  it('exits 0 after shutdown and exit, 1 on exit without shutdown or when its input closes', async () => {
    const c1 = await start(t.root)
    assert.equal(await stopLsp(c1), 0)
    const c2 = await start(t.root)
    await c2.conn.sendNotification('exit')
    assert.equal((await c2.exited).code, 1)
    const c3 = await start(t.root)
    c3.child.stdin.end()
    assert.equal((await c3.exited).code, 1)
    assert.equal(c3.stderr(), '')
  })

  it('handles every message piped before its input ends: 1,000 changes, a close, a reopen, shutdown', async () => {
    // A whole session written at once, its input closed behind it: the server reads the end
    // long before it has handled the messages queued ahead of it.
    const root = join(t.root, 'piped')
    makeTree(root, { 'p/skill.json': '{}', 'p/run.sh': { exec: '#!/bin/sh\ncat\n' } })
    const file = join(root, 'p/skill.json')
    const text = (i: number) =>
      JSON.stringify({ name: 'p', description: `Edit ${i}: does a thing.`, entry: 'run.sh' })
    const session = (tail: string) => {
      let s = frame({
        id: 1,
        method: 'initialize',
        params: {
          processId: null,
          rootUri: uri(root),
          capabilities: {},
          initializationOptions: { debounceMs: 0 },
        },
      })
      s += frame({ method: 'initialized', params: {} })
      const open = { uri: uri(file), languageId: 'json', version: 1, text: text(0) }
      s += frame({ method: 'textDocument/didOpen', params: { textDocument: open } })
      for (let i = 1; i <= 1000; i++)
        s += frame({
          method: 'textDocument/didChange',
          params: { textDocument: { uri: uri(file), version: i + 1 }, contentChanges: [{ text: text(i) }] },
        })
      s += frame({ method: 'textDocument/didClose', params: { textDocument: { uri: uri(file) } } })
      s += frame({ method: 'textDocument/didOpen', params: { textDocument: { ...open, text: text(1001) } } })
      return s + tail
    }
    const shutdown = frame({ id: 2, method: 'shutdown' })
    for (const [tail, code] of [
      [shutdown + frame({ method: 'exit' }), 0],
      [shutdown, 0],
      ['', 1],
    ] as const) {
      const r = await runCli(['lsp', '--stdio'], { input: session(tail), timeoutMs: 60_000 })
      assert.deepEqual(
        { code: r.code, hung: r.hung, stderr: r.stderr },
        { code, hung: false, stderr: '' },
        tail,
      )
      const out = unframe(r.stdoutBytes)
      const answer = out.findIndex((m) => m.id === 2 && 'result' in m)
      assert.equal(answer >= 0, tail !== '')
      if (answer < 0) continue
      // shutdown is answered after the diagnostics of the last text: the reopened one's.
      const last = out
        .slice(0, answer)
        .findLast(
          (m) =>
            m.method === 'textDocument/publishDiagnostics' && (m.params as { uri: string }).uri === uri(file),
        )
      assert.equal((last?.params as { version?: number } | undefined)?.version, 1)
    }
  })

  it('exits when its client dies: no orphan', async () => {
    // A client process that starts the server, then is killed (SIGKILL: no goodbye).
    const client = spawn(
      process.execPath,
      [
        '-e',
        `const s = require('node:child_process').spawn(process.execPath, [${JSON.stringify(BIN)}, 'lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] }); console.log(s.pid); setInterval(() => {}, 1000)`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'], cwd: REPO },
    )
    children.push(client)
    let out = ''
    client.stdout.on('data', (b: Buffer) => {
      out += b.toString()
    })
    assert.ok(await waitFor(() => /\d+\n/.test(out), 10_000))
    const server = Number(out.trim())
    const alive = () => {
      try {
        process.kill(server, 0)
        return true
      } catch {
        return false
      }
    }
    assert.ok(alive())
    client.kill('SIGKILL')
    assert.ok(await waitFor(() => !alive(), 10_000), 'the server outlived its client')
  })

  it('exits when the client process it was given is gone, input still open', async () => {
    const sleeper = spawn('sleep', ['60'])
    children.push(sleeper)
    const c = await start(t.root, { processId: sleeper.pid })
    sleeper.kill('SIGKILL')
    const { code } = await c.exited
    assert.equal(code, 1)
  })
})

describe('lsp: hover, completion, links', () => {
  let t: { root: string; cleanup: () => void }
  let c: LspClient
  let f: string
  let md: string
  before(async () => {
    t = tempRoot()
    makeTree(t.root, {
      'p/skill.json': '{}',
      'p/bin/run.sh': { exec: '#!/bin/sh\n' },
      'n/SKILL.md': '---\nname: n\n---\n',
    })
    f = join(t.root, 'p/skill.json')
    md = join(t.root, 'n/SKILL.md')
    c = await startLsp(t.root, { env: { ONGRID_TEST_TOKEN: 'x' } })
  })
  after(async () => {
    await stopLsp(c)
    t.cleanup()
  })
  const at = (line: number, character: number) => ({ line, character })

  it('hovers a key with what the manager does with it, and a diagnostic with its rule docs', async () => {
    const text =
      '{"name": "p", "env_allow": [], "Class": "safe", "extra": 1, "description": "x", "entry": "bin/run.sh"}'
    await c.open(f, text)
    await c.waitDiagnostics(uri(f))
    type H = { contents: { value: string } } | null
    const h = (ch: number) =>
      c.conn.sendRequest('textDocument/hover', {
        textDocument: { uri: uri(f) },
        position: at(0, ch),
      }) as Promise<H>
    const env = await h(text.indexOf('env_allow') + 2)
    assert.match(env?.contents.value ?? '', /an empty list passes no environment at all, not even PATH/)
    // Keys fold as Go's decoder folds them.
    assert.match((await h(text.indexOf('Class') + 1))?.contents.value ?? '', /\*\*class\*\*: `string/)
    assert.match((await h(text.indexOf('extra') + 1))?.contents.value ?? '', /does not read this key/)
    // The description is too short: practice/description-length (on the key), its docs line first.
    const desc = await h(text.indexOf('"description"') + 1)
    assert.match(
      desc?.contents.value ?? '',
      /^`practice\/description-length`: .*\n\n---\n\n\*\*description\*\*/s,
    )
    assert.equal(await h(text.indexOf('"p"') + 1), null)
  })

  it('completes the keys the manager reads, class values, builtin names, env_allow names and SKILL.md keys', async () => {
    type L = { label: string; insertText?: string; tags?: number[] }[]
    const items = (file: string, line: number, ch: number) =>
      c.conn.sendRequest('textDocument/completion', {
        textDocument: { uri: uri(file) },
        position: at(line, ch),
      }) as Promise<L>
    const text = '{"name": "", "class": , "env_allow": ["ONGRID_T"], \n'
    await c.change(f, text, 2)
    const keys = (await items(f, 1, 0)).map((i) => i.label)
    assert.deepEqual(keys, ['description', 'entry', 'schema', 'timeout_seconds', 'category'])
    const classes = await items(f, 0, text.indexOf('"class": ') + 9)
    assert.deepEqual(
      classes.map((i) => i.insertText),
      ['"safe"', '"mutating"', '"dangerous"'],
    )
    const names = await items(f, 0, text.indexOf('""') + 1)
    assert.equal(names.length, 11)
    assert.ok(names.every((i) => i.tags?.includes(1)))
    const envs = (await items(f, 0, text.indexOf('ONGRID_T') + 8)).map((i) => i.label)
    assert.ok(envs.includes('ONGRID_TEST_TOKEN'))
    await c.open(md, '---\nna\nactivation:\n  mode: \n---\n', 'markdown')
    const fm = (await items(md, 1, 2)).map((i) => i.label)
    assert.ok(fm.includes('when_to_use') && fm.includes('activation') && fm.includes('metadata'))
    assert.deepEqual(
      (await items(md, 3, 8)).map((i) => i.label),
      ['always', 'keyword'],
    )
  })

  it('links entry to its file, joined to the manifest dir', async () => {
    await c.change(f, '{"name": "p",\n "entry": "bin/run.sh"}', 3)
    const ls = (await c.conn.sendRequest('textDocument/documentLink', { textDocument: { uri: uri(f) } })) as {
      range: { start: { line: number; character: number } }
      target: string
    }[]
    assert.equal(ls.length, 1)
    assert.equal(ls[0].target, uri(join(t.root, 'p/bin/run.sh')))
    assert.deepEqual(ls[0].range.start, at(1, 11))
  })
})

describe('lsp: code actions', () => {
  let t: { root: string; cleanup: () => void }
  let c: LspClient
  before(async () => {
    t = tempRoot()
    c = await startLsp(t.root)
  })
  after(async () => {
    await stopLsp(c)
    t.cleanup()
  })
  type Edit = {
    range: { start: { line: number; character: number }; end: { line: number; character: number } }
    newText: string
  }
  type Action = {
    title: string
    kind: string
    isPreferred?: boolean
    edit?: { documentChanges?: { textDocument: { uri: string; version: number }; edits: Edit[] }[] }
    command?: { command: string; arguments: unknown[] }
  }
  /** Applies LSP edits to text (non-overlapping; applied from the last). */
  function apply(text: string, edits: Edit[]): string {
    const lines = text.split('\n')
    const offset = (p: { line: number; character: number }) =>
      lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character
    let out = text
    for (const e of [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start)))
      out = out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end))
    return out
  }
  const actions = (file: string, diagnostics: Diag[], only?: string[]) =>
    c.conn.sendRequest('textDocument/codeAction', {
      textDocument: { uri: uri(file) },
      range: diagnostics[0]?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics, ...(only ? { only } : {}) },
    }) as Promise<Action[]>

  it('offers the certain fix as the preferred quick fix, in the edited text’s UTF-16 positions', async () => {
    makeTree(t.root, { 'p/skill.json': '{}', 'p/run.sh': { exec: '#!/bin/sh\n' } })
    const f = join(t.root, 'p/skill.json')
    const text =
      '{\n  "name": "p",\n  "description": "Ünïcode 😀 before the fix, a skill that does a thing",\n  "entry": "run.sh"\n}\n'
    await c.open(f, text)
    const ds = await c.waitDiagnostics(uri(f), (d) => d.some((x) => x.code === 'practice/class-unset'))
    const d = ds.filter((x) => x.code === 'practice/class-unset')
    const [a] = await actions(f, d)
    assert.equal(a.kind, 'quickfix')
    assert.equal(a.isPreferred, true)
    const change = a.edit?.documentChanges?.[0]
    assert.deepEqual(change?.textDocument, { uri: uri(f), version: 1 })
    const fixed = apply(text, change?.edits ?? [])
    assert.equal(
      fixed,
      '{\n  "name": "p",\n  "description": "Ünïcode 😀 before the fix, a skill that does a thing",\n  "entry": "run.sh",\n  "class": "safe"\n}\n',
    )
    await c.change(f, fixed, 2)
    await c.waitDiagnostics(
      uri(f),
      (x) => !x.some((y) => y.code === 'practice/class-unset'),
      c.publishes.get(uri(f)),
    )
  })

  it('offers a suggestion as a quick fix that is not preferred, and nothing for a text changed since', async () => {
    const f = join(t.root, 'p/skill.json')
    const text =
      '{"name": "p", "description": "A skill that does a thing well.", "entry": "run.sh", "class": "safe", "timeout": 10}'
    const n = c.publishes.get(uri(f)) ?? 0
    await c.change(f, text, 3)
    const ds = await c.waitDiagnostics(uri(f), (d) => d.some((x) => x.code === 'practice/near-miss-key'), n)
    const d = ds.filter((x) => x.code === 'practice/near-miss-key')
    const got = await actions(f, d)
    const s = got.find((a) => a.title.includes('timeout_seconds'))
    assert.ok(s, JSON.stringify(got))
    assert.equal(s.isPreferred, false)
    assert.match(apply(text, s.edit?.documentChanges?.[0].edits ?? []), /"timeout_seconds": 10/)
    await c.change(f, `${text} `, 4)
    assert.deepEqual(await actions(f, d), [])
  })

  it('fixes all in a file, and sets the entry’s execute bit by command', async () => {
    makeTree(t.root, { 'q/run.sh': '#!/bin/sh\n', 'q/skill.json': '{}' })
    const f = join(t.root, 'q/skill.json')
    const text =
      '\ufeff{"name": "q", "description": "A skill that does a thing well.", "entry": "run.sh", "timeout_seconds": "30"}'
    await c.open(f, text)
    const ds = await c.waitDiagnostics(uri(f), (d) => d.some((x) => x.code === 'practice/bom'))
    // Fix all, as many passes as the text needs: the BOM first, then the timeout as a number.
    const fixAll = async (text: string, version: number) => {
      const all = (await actions(f, [], ['source.fixAll'])).find(
        (a) => a.kind === 'source.fixAll.ongrid-skill',
      )
      assert.ok(all)
      const fixed = apply(text, all.edit?.documentChanges?.[0].edits ?? [])
      const n = c.publishes.get(uri(f)) ?? 0
      await c.change(f, fixed, version)
      return { fixed, diagnostics: await c.waitDiagnostics(uri(f), () => true, n) }
    }
    const one = await fixAll(text, 2)
    assert.ok(!one.fixed.startsWith('\ufeff'))
    assert.ok(!one.diagnostics.some((x) => x.code === 'practice/bom'))
    const two = await fixAll(one.fixed, 3)
    assert.match(two.fixed, /"timeout_seconds": 30\}$/)
    const after1 = two.diagnostics
    const notExec = after1.filter((x) => x.code === 'run/not-executable')
    assert.equal(notExec.length, 1, JSON.stringify(ds))
    const [m] = await actions(f, notExec)
    assert.equal(m.command?.command, 'ongrid-skill.setMode')
    const n2 = c.publishes.get(uri(f)) ?? 0
    await c.conn.sendRequest('workspace/executeCommand', {
      command: m.command?.command,
      arguments: m.command?.arguments,
    })
    await c.waitDiagnostics(uri(f), (x) => !x.some((y) => y.code === 'run/not-executable'), n2)
    // A mode no finding offers is not set.
    await c.conn.sendRequest('workspace/executeCommand', {
      command: 'ongrid-skill.setMode',
      arguments: [join(t.root, 'q/skill.json'), 0o777],
    })
    assert.equal(statSync(join(t.root, 'q/skill.json')).mode & 0o777, 0o644)
  })
})

describe('lsp: Run and Test lenses', () => {
  it('runs a pack with examples/args.json, and one case of a case file, showing the outcome', async () => {
    const t = tempRoot()
    makeTree(t.root, {
      'p/skill.json':
        '{"name":"p","description":"A skill that does a thing well.","entry":"run.sh","class":"safe","timeout_seconds":5}',
      'p/run.sh': { exec: '#!/bin/sh\ncat\n' },
      'p/examples/args.json': '{"said": "from examples ü"}',
      'p/tests/cases.json':
        '[\n  {"name": "echoes", "args": {"a": 1}, "expect": {"ok": true, "result": {"a": 1}}},\n  {"name": "other", "args": {}, "expect": {"ok": false}}\n]\n',
    })
    const c = await startLsp(t.root)
    const messages: { type: number; message: string }[] = []
    c.conn.onNotification('window/showMessage', (m: { type: number; message: string }) => {
      messages.push(m)
    })
    try {
      const f = join(t.root, 'p/skill.json')
      await c.open(f, readFileSync(f, 'utf8'))
      type Lens = {
        range: { start: { line: number } }
        command: { title: string; command: string; arguments: unknown[] }
      }
      const lensesOf = (file: string) =>
        c.conn.sendRequest('textDocument/codeLens', { textDocument: { uri: uri(file) } }) as Promise<Lens[]>
      const [run, test] = await lensesOf(f)
      assert.equal(run.command.title, 'Run (examples/args.json)')
      assert.equal(test.command.title, 'Test')
      const r = (await c.conn.sendRequest('workspace/executeCommand', run.command)) as {
        code: number
        output: string
      }
      assert.equal(r.code, 0, r.output)
      assert.match(r.output, /"said": ?"from examples ü"/)
      assert.ok(
        await waitFor(
          () => messages.some((m) => m.type === 3 && /ongrid-skill run .*: exit 0/.test(m.message)),
          5000,
        ),
      )
      const cases = join(t.root, 'p/tests/cases.json')
      await c.open(cases, readFileSync(cases, 'utf8'))
      const caseLenses = await lensesOf(cases)
      assert.deepEqual(
        caseLenses.map((l) => [l.range.start.line, l.command.title]),
        [
          [1, 'Run'],
          [1, 'Test echoes'],
          [2, 'Run'],
          [2, 'Test other'],
        ],
      )
      const one = (await c.conn.sendRequest('workspace/executeCommand', caseLenses[1].command)) as {
        code: number
        output: string
      }
      assert.equal(one.code, 0, one.output)
      assert.match(one.output, /echoes/)
      assert.doesNotMatch(one.output, /other/)
      // The whole suite: "other" fails (the entry succeeds), so the run is an error message.
      await c.conn.sendRequest('workspace/executeCommand', test.command)
      assert.ok(
        await waitFor(
          () => messages.some((m) => m.type === 1 && /ongrid-skill test .*: exit 1/.test(m.message)),
          5000,
        ),
      )
      // A command whose pack is not one is not run.
      assert.equal(
        await c.conn.sendRequest('workspace/executeCommand', {
          command: 'ongrid-skill.run',
          arguments: [t.root],
        }),
        null,
      )
    } catch (e) {
      throw new Error(`${(e as Error).message}\n${c.stderr()}`)
    } finally {
      if (c.child.exitCode === null) await stopLsp(c)
      t.cleanup()
    }
  })
})
