import assert from 'node:assert/strict'
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { onPath } from '../../src/core/init/build-step.js'
import { startCli } from '../helpers/cli.js'
import { straceMissing } from '../helpers/trace-tools.js'
import { makeTree, tempRoot } from '../helpers/tree.js'
import { assertNoFindings, assertReadmeExamplePasses, initCli as cli } from './init-helpers.js'

const DESCRIPTION = 'Check whether a TCP port on a host accepts connections, e.g. before a deploy.'
const TEMPLATES = ['bash', 'python', 'node', 'go'] as const
const HAS_GO = onPath('go')

/** Every file under root with its mode and bytes, to show that nothing changed. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (dir: string, prefix: string) => {
    for (const name of readdirSync(dir).sort()) {
      const st = lstatSync(join(dir, name))
      if (st.isDirectory()) walk(join(dir, name), `${prefix}${name}/`)
      else
        out[`${prefix}${name}`] =
          `${(st.mode & 0o777).toString(8)} ${readFileSync(join(dir, name), 'latin1')}`
    }
  }
  walk(root, '')
  return out
}

let R = ''
let cleanup = () => {}
before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-skill-init-'))
})
after(() => cleanup())

// The templates are independent: check them side by side (each one's steps stay in order).
describe('init, for every template', { concurrency: true }, () => {
  for (const t of TEMPLATES) {
    const skip =
      t === 'go' && !HAS_GO && !process.env.ONGRID_REQUIRE_GO
        ? 'go is not on PATH (set ONGRID_REQUIRE_GO=1 to make this a failure)'
        : false
    describe(`init --template ${t}`, { skip, concurrency: 1 }, () => {
      const name = `${t}_check`
      let parent = ''
      let dir = ''
      let server: Server
      before(async () => {
        parent = join(R, t)
        dir = join(parent, `${t}-check`)
        mkdirSync(parent)
        server = createServer((s) => s.end())
        await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
      })
      after(() => server.close())

      test('init --no-input writes the pack and prints the next steps', async () => {
        const r = await cli(['init', name, '--no-input', '--description', DESCRIPTION, '--template', t], {
          cwd: parent,
        })
        assert.equal(r.code, 0, r.stderr)
        assert.equal(r.stderr, '')
        const files = readdirSync(dir).sort()
        for (const f of ['README.md', 'examples', 'skill.json']) assert.ok(files.includes(f), f)
        const m = JSON.parse(readFileSync(join(dir, 'skill.json'), 'utf8'))
        assert.equal(m.name, name)
        assert.equal(m.description, DESCRIPTION)
        assert.equal(m.class, 'safe')
        assert.equal(m.category, 'external')
        assert.equal(m.timeout_seconds, 15)
        assert.deepEqual(m.env_allow, t === 'python' || t === 'node' ? ['PATH'] : [])
        assert.ok(statSync(join(dir, m.entry)).mode & 0o100, 'the entry is executable')
        assert.match(
          r.stdout,
          new RegExp(
            `\nNext:\n  \\$EDITOR ${t}-check/${t === 'go' ? 'main.go' : m.entry} ${t}-check/skill.json   # replace the sample \\(a TCP port checker\\) with the skill's work, and the schema with its params${t === 'go' ? `, then \\(cd ${t}-check && \\./build\\.sh\\)` : ''}\n  ongrid-skill validate ${t}-check\n  ongrid-skill test ${t}-check   # the cases in tests/cases\\.json: keep them in step with the code\n  ongrid-skill run ${t}-check --args-file ${t}-check/examples/args.json\n  sudo cp -r ${t}-check /etc/ongrid/skills/   # or any dir in ONGRID_SKILLS_EXTERNAL_DIRS; then restart the manager\n$`,
          ),
        )
        if (t === 'go') {
          assert.equal(m.entry, `bin/${name}`)
          // The built binary is kept out of git (the template ships it as `gitignore`: npm drops .gitignore files).
          assert.equal(readFileSync(join(dir, '.gitignore'), 'utf8').split('\n').at(-2), '/bin/')
          assert.ok(!existsSync(join(dir, 'gitignore')))
        } else assert.ok(!existsSync(join(dir, '.gitignore')))
      })

      test('validate reports nothing', async () => {
        assertNoFindings(await cli(['validate', dir, '--json'], { cwd: parent }), 'validate')
      })

      test('lint reports nothing', async () => {
        assertNoFindings(await cli(['lint', dir, '--json'], { cwd: parent }), 'lint')
      })

      test('run with examples/args.json succeeds with an object', async () => {
        const r = await cli(
          ['run', dir, '--args-file', join(dir, 'examples/args.json'), '--json', '--no-audit'],
          {
            cwd: parent,
          },
        )
        assert.equal(r.code, 0, r.stderr + r.stdout)
        const doc = JSON.parse(r.stdout)
        assert.equal(doc.ok, true)
        assert.deepEqual(Object.keys(doc.result), ['host', 'port', 'reachable', 'latency_ms', 'error'])
        assert.equal(doc.result.host, '127.0.0.1')
        assert.equal(typeof doc.result.reachable, 'boolean')
        assert.match(
          doc.entry.stderr,
          new RegExp(`^${name}: connecting to 127\\.0\\.0\\.1:22 \\(timeout 1000 ms\\)\n`),
        )
      })

      test('its own cases pass on the first try', async () => {
        const r = await cli(['test', dir, '--format', 'json'], { cwd: parent })
        assert.equal(r.code, 0, r.stderr + r.stdout)
        const doc = JSON.parse(r.stdout)
        assert.deepEqual(doc.summary.passed, 2)
      })

      test('its own cases trace clean for its class (test --trace)', async (t) => {
        const missing = straceMissing()
        if (missing !== null) return t.skip(missing)
        const r = await cli(['test', dir, '--trace', '--format', 'json'], { cwd: parent })
        assert.equal(r.code, 0, r.stderr + r.stdout)
        const cases = JSON.parse(r.stdout).packs[0].cases
        assert.equal(cases.length, 2)
        for (const c of cases) {
          assert.ok(c.trace, `${c.name} was not traced`)
          assert.deepEqual(c.trace.findings, [], `${c.name}: ${JSON.stringify(c.trace.effects)}`)
        }
      })

      test("the README's way to add a case works: its example case, added, passes", () =>
        assertReadmeExamplePasses(dir, parent, 3))

      test('a listening port is reachable, with its latency', async () => {
        const { port } = server.address() as { port: number }
        const r = await cli(
          ['run', dir, '--arg', 'host=127.0.0.1', '--arg', `port=${port}`, '--json', '--no-audit'],
          {
            cwd: parent,
          },
        )
        assert.equal(r.code, 0, r.stderr + r.stdout)
        const { result } = JSON.parse(r.stdout)
        assert.equal(result.reachable, true, JSON.stringify(result))
        assert.equal(result.port, port)
        assert.equal(typeof result.latency_ms, 'number')
        assert.equal(result.error, null)
      })

      test('bad args: the entry exits 1 and the manager’s error carries its message', async () => {
        const cases = [
          ['{"port":"x"}', 'invalid args: host: required'],
          ['{"host":"127.0.0.1","port":"x"}', 'invalid args: port: must be an integer from 1 to 65535'],
          ['{"host":"a b","port":1}', 'invalid args: host: must be a host name'],
          ['{"host":"h","port":1,"extra":true}', 'invalid args: extra: unknown field'],
          ['[1]', 'invalid args: '],
        ]
        const runs = await Promise.all(
          cases.map(([args]) =>
            cli(['run', dir, '--args', args, '--no-validate', '--no-audit'], { cwd: parent }),
          ),
        )
        cases.forEach(([args, message], i) => {
          const r = runs[i]
          assert.equal(r.code, 1, `${args}: ${r.stderr}`)
          assert.ok(
            r.stderr.includes(`error: subprocess skill ${name}: exit 1 (stderr: ${name}: ${message}`),
            `${args}: ${r.stderr}`,
          )
        })
      })

      test('load-dirs over the parent dir registers the skill', async () => {
        const r = await cli(['load-dirs', parent], { cwd: parent })
        assert.equal(r.code, 0)
        assert.equal(r.stdout, `skill loader: registered subprocess skill "${name}" from ${dir}/skill.json\n`)
      })
    })
  }
})

describe('init: refusals and usage errors', () => {
  let W = ''
  before(() => {
    W = join(R, 'usage')
    makeTree(W, { 'taken/notes.txt': 'mine', afile: 'x' })
  })

  test('a non-empty dir is refused (exit 2), untouched', async () => {
    const before = snapshot(W)
    const r = await cli(['init', 'x_skill', '-y', '-d', DESCRIPTION, '--dir', 'taken'], { cwd: W })
    assert.equal(r.code, 2)
    assert.equal(
      r.stderr,
      `ongrid-skill: ${W}/taken exists and is not empty: nothing written (--force adds only the files it lacks)\n`,
    )
    assert.deepEqual(snapshot(W), before)
  })

  test('one line and exit 2 for a bad value; nothing written', async () => {
    const before = snapshot(W)
    const cases = [
      [['Foo', '-y', '-d', DESCRIPTION], 'name "Foo" must be lower_snake [a-z0-9_]'],
      [['check-port', '-y', '-d', DESCRIPTION], 'name "check-port" must be lower_snake [a-z0-9_]'],
      [
        ['web_search', '-y', '-d', DESCRIPTION],
        'name "web_search" is taken by a builtin skill of the manager',
      ],
      [['-y', '-d', DESCRIPTION], 'missing NAME: the skill name, lower_snake [a-z0-9_]'],
      [['ok_name', '--no-input'], 'description required: pass --description'],
      [['ok_name', '-y', '-d', ' '], 'description required'],
      [
        ['ok_name', '-y', '-d', DESCRIPTION, '--class', 'harmless'],
        '--class: "harmless" is not one of safe, mutating, dangerous',
      ],
      [
        ['ok_name', '-y', '-d', DESCRIPTION, '--timeout', '0'],
        '--timeout: must be whole seconds from 1 to 86400 (1s to 24h), not "0"',
      ],
      [['ok_name', '-y', '-d', DESCRIPTION, '--timeout', '1.5'], '--timeout: must be whole seconds'],
      [
        ['ok_name', '-y', '-d', DESCRIPTION, '--env-allow', 'PATH,A-B'],
        '--env-allow: "A-B" is not an environment variable name',
      ],
      [
        ['ok_name', '-y', '-d', DESCRIPTION, '--template', 'cobol'],
        'unknown template "cobol": the built-in ones are bash, go, node, python',
      ],
      [
        ['ok_name', '-y', '-d', DESCRIPTION, '--template', './nowhere'],
        'template ./nowhere: not a directory',
      ],
      [
        ['ok_name', '-y', '-d', DESCRIPTION, '--dir', 'afile'],
        `${W}/afile exists and is not a directory: nothing written`,
      ],
      [
        ['ok_name', '-y', '-d', DESCRIPTION, '--dir', 'afile/x'],
        `cannot write the pack: lstat ${W}/afile/x: not a directory: nothing written\n`,
      ],
    ] as const
    const runs = await Promise.all(cases.map(([args]) => cli(['init', ...args], { cwd: W })))
    cases.forEach(([args, message], i) => {
      const r = runs[i]
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`)
      assert.ok(r.stderr.startsWith(`ongrid-skill: ${message}`), `${args.join(' ')}: ${r.stderr}`)
      // One line, and at most one hint line under it.
      const lines = r.stderr.split('\n')
      assert.ok(lines.length === 2 || (lines.length === 3 && lines[1].startsWith('hint: ')), r.stderr)
      assert.equal(r.stdout, '')
    })
    assert.deepEqual(snapshot(W), before)
  })

  test('without a terminal it never prompts, even without --no-input', async () => {
    const r = await cli(['init'], { cwd: W })
    assert.equal(r.code, 2)
    assert.match(r.stderr, /^ongrid-skill: missing NAME/)
  })
})

describe('init: --force, --json, --dir, templates', () => {
  let W = ''
  before(() => {
    W = join(R, 'more')
    mkdirSync(W)
  })

  test('--force adds only the missing files; existing ones stay byte for byte', async () => {
    makeTree(W, {
      'mine/skill.json': '{"my": "own"}',
      'mine/run.sh': { file: '#!/bin/sh\necho mine\n', mode: 0o700 },
      'mine/notes.txt': 'keep me',
    })
    const before = snapshot(join(W, 'mine'))
    const r = await cli(
      ['init', 'mine', '-y', '-d', DESCRIPTION, '--template', 'bash', '--dir', 'mine', '--force', '--json'],
      {
        cwd: W,
      },
    )
    assert.equal(r.code, 0, r.stderr)
    const doc = JSON.parse(r.stdout)
    assert.deepEqual(doc.files, ['README.md', 'tests/cases.json', 'tests/evals.json', 'examples/args.json'])
    assert.deepEqual(doc.kept, ['skill.json', 'run.sh'])
    const after = snapshot(join(W, 'mine'))
    for (const [k, v] of Object.entries(before)) assert.equal(after[k], v, k)
    assert.deepEqual(Object.keys(after).sort(), [
      'README.md',
      'examples/args.json',
      'notes.txt',
      'run.sh',
      'skill.json',
      'tests/cases.json',
      'tests/evals.json',
    ])
  })

  test('--json: {dir, name, template, files, next}', async () => {
    const r = await cli(
      ['init', 'json_skill', '-y', '-d', DESCRIPTION, '--template', 'bash', '--dir', 'sub/js', '--json'],
      {
        cwd: W,
      },
    )
    assert.equal(r.code, 0, r.stderr)
    const doc = JSON.parse(r.stdout)
    assert.equal(doc.dir, join(W, 'sub/js'))
    assert.equal(doc.name, 'json_skill')
    assert.equal(doc.template, 'bash')
    assert.deepEqual(doc.files, [
      'skill.json',
      'README.md',
      'run.sh',
      'tests/cases.json',
      'tests/evals.json',
      'examples/args.json',
    ])
    assert.deepEqual(doc.next, [
      "$EDITOR sub/js/run.sh sub/js/skill.json   # replace the sample (a TCP port checker) with the skill's work, and the schema with its params",
      'ongrid-skill validate sub/js',
      'ongrid-skill test sub/js   # the cases in tests/cases.json: keep them in step with the code',
      'ongrid-skill run sub/js --args-file sub/js/examples/args.json',
      'sudo cp -r sub/js /etc/ongrid/skills/   # or any dir in ONGRID_SKILLS_EXTERNAL_DIRS; then restart the manager',
    ])
  })

  test('a description with quotes, backslashes and newlines stays data', async () => {
    const nasty = 'Says "hi" \\ and $(rm -rf /) `x`\nover two lines, which is plenty.'
    const r = await cli(
      [
        'init',
        'nasty',
        '-y',
        '-d',
        nasty,
        '--template',
        'bash',
        '--class',
        'mutating',
        '--category',
        'ops "x"',
      ],
      {
        cwd: W,
      },
    )
    assert.equal(r.code, 0, r.stderr)
    const m = JSON.parse(readFileSync(join(W, 'nasty/skill.json'), 'utf8'))
    assert.equal(m.description, nasty)
    assert.equal(m.class, 'mutating')
    assert.equal(m.category, 'ops "x"')
    assert.equal(m.timeout_seconds, 30)
    assert.ok(readFileSync(join(W, 'nasty/README.md'), 'utf8').includes(nasty))
    const run = await cli(['run', 'nasty', '--args-file', 'nasty/examples/args.json', '--no-audit'], {
      cwd: W,
    })
    assert.equal(run.code, 0, run.stderr)
  })

  test('--list-templates names each with its description', async () => {
    const r = await cli(['init', '--list-templates'], { cwd: W })
    assert.equal(r.code, 0)
    assert.deepEqual(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.split(/\s+/)[0]),
      ['bash', 'go', 'node', 'python'],
    )
    const j = await cli(['init', '--list-templates', '--json'], { cwd: W })
    assert.equal(
      JSON.parse(j.stdout).templates.find((t: { name: string }) => t.name === 'go').build.script,
      'build.sh',
    )
  })

  test('--template PATH takes a custom template dir', async () => {
    makeTree(W, {
      'tpl/template.json': JSON.stringify({
        description: 'Our own',
        entry: 'bin/{{name}}',
        env_allow: [],
        schema: { type: 'object', properties: {}, additionalProperties: false },
        example_args: {},
      }),
      'tpl/files/bin/{{name}}': { exec: '#!/bin/sh\necho \'{"skill": "{{name}}"}\'\n' },
      'tpl/files/README.md': '# {{name}}\n\n{{description}}\n',
    })
    const r = await cli(['init', 'own_skill', '-y', '-d', DESCRIPTION, '--template', './tpl', '--json'], {
      cwd: W,
    })
    assert.equal(r.code, 0, r.stderr)
    assert.equal(JSON.parse(r.stdout).template, join(W, 'tpl'))
    const run = await cli(['run', 'own-skill', '--json', '--no-audit'], { cwd: W })
    assert.deepEqual(JSON.parse(run.stdout).result, { skill: 'own_skill' })
  })

  test('go without go on PATH: the sources and build.sh are written, the build is the first next step', async () => {
    const empty = join(W, 'empty-bin')
    mkdirSync(empty)
    const r = await cli(['init', 'gone', '-y', '-d', DESCRIPTION, '--template', 'go'], {
      cwd: W,
      env: { PATH: empty },
    })
    assert.equal(r.code, 0, r.stderr)
    assert.match(
      r.stderr,
      /^warning: go is not on PATH: bin\/gone is not built yet, so the manager cannot load the pack; install go and run \.\/build\.sh in the pack\n$/,
    )
    assert.ok(statSync(join(W, 'gone/build.sh')).mode & 0o100)
    assert.ok(!existsSync(join(W, 'gone/bin')))
    assert.match(
      r.stdout,
      /\nNext:\n {2}\(cd gone && \.\/build\.sh\)\n {2}\$EDITOR gone\/main\.go gone\/skill\.json {3}# .*\n {2}ongrid-skill validate gone\n/,
    )
  })
})

describe('init on a terminal: the wizard', () => {
  let R = ''
  let cleanup = () => {}
  before(() => {
    ;({ root: R, cleanup } = tempRoot('ongrid-init-tty-'))
  })
  after(() => cleanup())

  /** Runs init on a pseudo-terminal (`script`); `keys` are typed once the wizard has drawn. */
  function onTerminal(args: string[], keys: string[]): Promise<{ code: number | null; screen: string }> {
    // A new pseudo-terminal has no size: give it one, or every character is a line.
    // ink draws frames only outside CI; the wizard is what is tested, so CI is unset here.
    const term = startCli(['init', ...args], {
      cwd: R,
      tty: true,
      sh: 'stty cols 100 rows 40; exec "$0" "$@"',
      stdin: 'open',
      env: { CI: undefined, CONTINUOUS_INTEGRATION: undefined, NO_COLOR: '1', TERM: 'xterm' },
    })
    return new Promise((resolve, reject) => {
      let screen = ''
      let started = false
      let next: NodeJS.Timeout | undefined
      const typeAll = (k: number) => {
        if (k >= keys.length) return
        term.stdin.write(keys[k])
        next = setTimeout(() => typeAll(k + 1), 250)
      }
      const limit = setTimeout(() => {
        term.kill('SIGKILL')
        reject(new Error(`init on a terminal did not end: ${screen}`))
      }, 30_000)
      term.stdout.on('data', (c: Buffer) => {
        screen += c.toString('utf8')
        if (!started && screen.includes('a new skill pack')) {
          started = true
          next = setTimeout(() => typeAll(0), 250)
        }
      })
      term.on('error', reject)
      term.on('close', (code: number | null) => {
        clearTimeout(limit)
        clearTimeout(next)
        resolve({ code, screen })
      })
    })
  }

  test('Esc aborts: one line, exit 130, nothing written; NO_COLOR: no colour', async () => {
    // Esc, not Ctrl-C: typed before the wizard has the terminal in raw mode, Ctrl-C would be the
    // kernel's SIGINT; Esc waits in the terminal's buffer until the wizard reads it.
    const r = await onTerminal(['demo_skill', '--dir', join(R, 'demo')], ['\x1b'])
    assert.match(r.screen, /ongrid-skill: aborted: nothing written/)
    assert.equal(r.code, 130)
    // NO_COLOR (set by onTerminal): no colour, though the cursor (inverse) is drawn.
    assert.match(r.screen, /\x1b\[7m/)
    assert.doesNotMatch(r.screen, /\x1b\[(3[0-79]|9[0-7])m/)
    assert.equal(existsSync(join(R, 'demo')), false)
  })

  test('Enter through every question: the pack of the flags and defaults, exit 0', async () => {
    const dir = join(R, 'entered')
    const r = await onTerminal(['entered_skill', '-d', DESCRIPTION, '--dir', dir], Array(20).fill('\r'))
    assert.equal(r.code, 0, r.screen)
    const manifest = JSON.parse(readFileSync(join(dir, 'skill.json'), 'utf8'))
    assert.equal(manifest.name, 'entered_skill')
    assert.equal(manifest.description, DESCRIPTION)
  })
})

describe('init --force over a pack of another template', () => {
  const { root: W, cleanup } = tempRoot('ongrid-init-force-template-')
  after(cleanup)

  test('without --template the pack keeps its own; another --template is refused, nothing written', async () => {
    const made = await cli(['init', 'ping', '-y', '-q', '-d', DESCRIPTION, '-t', 'node'], { cwd: W })
    assert.equal(made.code, 0, made.stderr)
    const before = readdirSync(join(W, 'ping')).sort()
    const again = await cli(['init', 'ping', '-y', '-q', '-d', DESCRIPTION, '--force'], { cwd: W })
    assert.equal(again.code, 0, again.stderr)
    assert.deepEqual(readdirSync(join(W, 'ping')).sort(), before)
    assert.ok(!existsSync(join(W, 'ping', 'run.py')))
    const mixed = await cli(['init', 'ping', '-y', '-q', '-d', DESCRIPTION, '--force', '-t', 'python'], {
      cwd: W,
    })
    assert.equal(mixed.code, 2)
    assert.equal(
      mixed.stderr,
      `ongrid-skill: --force: ${join(W, 'ping')} holds a node pack (entry run.mjs): --template python would put its files beside them\nhint: keep its template (--template node, or none), or init into another --dir\n`,
    )
    assert.deepEqual(readdirSync(join(W, 'ping')).sort(), before)
  })
})
