#!/usr/bin/env node
// npm run bench — the project's speed budgets, measured.
//
//   node scripts/bench.mjs [--runs N] [--warmup N] [--only NAME[,NAME]] [--json] [--no-fail] [--regen]
//
// Every figure is a command run as a user runs it (./bin/run.js …, stdout and stderr to
// files under .bench/out/), timed from spawn to exit. All figures are measured in the same
// rounds, interleaved (floor, version, load-dirs, floor, version, …), after warm-up rounds
// that are thrown away, so drift on the machine hits them alike. The floor, `node -e 0`
// without NODE_EXTRA_CA_CERTS (`floor-bare`: bin/run.js keeps node from parsing those CAs, so
// the honest floor does not either), is always measured, and each figure is shown as a ratio
// to it. Figures compared with another program (a Go loader built here, ajv-cli) measure that
// program in the same rounds. See docs/bench.md.
//
// To add a figure, add an entry to FIGURES below: a name, a title, the subcommand it needs
// (`requires`), a `prepare` that returns the argv (and an optional output check), and its
// budgets. A figure whose subcommand does not answer `--help` is skipped, never passed.
import { spawnSync } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkAuditTail, seedAuditDb } from './bench/audit-seed.mjs'
import { evalReplay } from './bench/eval-replay.mjs'
import { checkLspLatency, checkLspSession, lspInput } from './bench/lsp.mjs'
import { marketplacePack } from './bench/marketplace-pack.mjs'
import { RSS_METHOD, resetDir, runOnce, stats, timedAndProbed } from './bench/measure.mjs'
import { generateTree } from './bench/tree.mjs'

const REPO = realpathSync(join(dirname(fileURLToPath(import.meta.url)), '..'))
const BIN = join(REPO, 'bin', 'run.js')
const BENCH_DIR = join(REPO, '.bench') // gitignored
const OUT_DIR = join(BENCH_DIR, 'out')
const RSS_DIR = join(BENCH_DIR, 'rss')
const MB = 1e6
/** The floor every ratio is taken against: `node -e 0` as bin/run.js starts node (no extra CAs). */
const FLOOR = 'floor-bare'

/**
 * The figures. Fields:
 *   name       what --only takes
 *   title      one line for the report
 *   requires   the subcommand (e.g. 'load-dirs', 'audit tail') that must answer --help with exit 0;
 *              omitted for figures that need no subcommand
 *   needs      a program that must be on PATH (e.g. 'strace'); without it the figure is skipped
 *   pending    set on figures for commands that do not exist yet: when the command is missing the
 *              figure is "skipped: command not available"; for other figures a missing command fails
 *   prepare    (ctx) => ({ argv, input?, exitCodes?, check?, unsetEnv?, env?, fresh? }) — argv[0] is the
 *              executable; check (stdout path, stderr path) returns null or what is wrong with the
 *              output; env is set on top of the bench's; fresh: dirs removed before each run, untimed
 *              (a cache the figure is to meet cold).
 *              Runs once, before the rounds. null: the figure is declared but not written yet.
 *   rss        a second run of this figure in each round, with the peak-RSS probe preloaded (see
 *              RSS_METHOD): its peak and CPU time; the time is always the unprobed run's
 *   heap       with rss: the probe also records the live heap at exit (heapUsed after a full GC)
 *   budgets    [{ metric: 'wall', max: seconds }
 *               | { metric: 'wall', ratioTo: figure, max: ratio }   (median / that figure's median)
 *               | { metric: 'wall', minus: figure, max: seconds }   (median − that figure's median)
 *               | { metric: 'wall', minus: figure, per: n, lessEach?: figure, max: seconds }
 *                    ((median − that figure's median) / n, less lessEach's median: a cost per item)
 *               | { metric: 'rss', max: bytes }                    (largest peak over the runs)
 *               | { metric: 'rss', ratioTo: figure, max: ratio }   (largest peak / that figure's)
 *               | { metric: 'heap', ratioTo: figure, max: ratio }] (largest live heap / that figure's)
 *               | { metric: 'size', max: bytes }                  (prepare's `size()`: bytes on disk)
 *   runs       measure this figure in only the first N rounds, no warm-up (figures taking minutes)
 */
const FIGURES = [
  {
    name: 'floor',
    title: 'node -e 0: starting node itself, the floor',
    prepare: () => ({ argv: ['node', '-e', '0'] }),
  },
  {
    name: 'floor-bare',
    title:
      'node -e 0 without NODE_EXTRA_CA_CERTS (node parses those CAs at startup; bin/run.js keeps them from it)',
    prepare: () => ({ argv: ['node', '-e', '0'], unsetEnv: ['NODE_EXTRA_CA_CERTS'] }),
  },
  {
    name: 'floor-rss',
    title: 'node -e 0, and a run with the RSS probe: its CPU cost, and bare node’s peak RSS',
    rss: true,
    prepare: () => ({ argv: ['node', '-e', '0'] }),
  },
  {
    name: 'version',
    title: './bin/run.js --version',
    prepare: () => ({
      argv: [BIN, '--version'],
      check: (out) =>
        /^ongrid-skill\/\S+ /.test(readFileSync(out, 'utf8')) ? null : 'no version line on stdout',
    }),
    budgets: [{ metric: 'wall', ratioTo: FLOOR, max: 1.05 }],
  },
  {
    name: 'go-loader-10k',
    title:
      'the Go loader reference (scripts/bench/go-loader, stdlib only, built here) over the tree of load-dirs-10k',
    prepare: (ctx) => {
      const tree = ctx.tree({ packs: 10_000, groups: 100, seed: 1 })
      return { argv: [buildGoLoader(), tree.root], check: (out) => checkLoaderLines(out, tree.expect) }
    },
  },
  {
    name: 'load-dirs-10k',
    title: './bin/run.js load-dirs <tree of 10,000 packs>',
    requires: 'load-dirs',
    rss: true,
    prepare: (ctx) => {
      const tree = ctx.tree({ packs: 10_000, groups: 100, seed: 1 })
      return { argv: [BIN, 'load-dirs', tree.root], check: (out) => checkLoaderLines(out, tree.expect) }
    },
    budgets: [
      { metric: 'wall', ratioTo: 'go-loader-10k', max: 0.8 },
      { metric: 'rss', max: 70 * MB },
    ],
  },

  // ---- The package and the single executable (issue: install in one line).
  {
    name: 'install',
    title:
      "npm install -g ./ongrid-skill-<v>.tgz into an empty prefix with an empty npm cache (a user's first install: every dependency downloaded); size: du of the installed package",
    runs: 1,
    prepare: () => {
      const dir = join(BENCH_DIR, 'install')
      resetDir(dir)
      const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
        cwd: REPO,
        encoding: 'utf8',
      })
      if (packed.status !== 0) throw new Error(`npm pack: ${packed.stderr.trim().split('\n').pop()}`)
      const tgz = join(dir, JSON.parse(packed.stdout)[0].filename)
      const prefix = join(dir, 'prefix')
      const cache = join(dir, 'npm-cache')
      const sh = (s) => `'${s.replaceAll("'", "'\\''")}'`
      return {
        argv: [
          'sh',
          '-c',
          `rm -rf ${sh(prefix)} ${sh(cache)} && npm install -g --prefix ${sh(prefix)} --cache ${sh(cache)} --no-audit --no-fund ${sh(tgz)}`,
        ],
        size: () => duBytes(join(prefix, 'lib', 'node_modules', 'ongrid-skill')),
      }
    },
    budgets: [
      { metric: 'wall', max: 30 },
      { metric: 'size', max: 40 * MB },
    ],
  },
  {
    name: 'pre-commit-install',
    title:
      'pre-commit install-hooks of the three hooks from a release tag (scripts/release.mjs --ref, in a git repository of its own), PRE_COMMIT_HOME empty: what a user waits for on the first commit',
    runs: 1,
    prepare: () => {
      if (spawnSync('pre-commit', ['--version']).status !== 0) throw new Error('pre-commit is not installed')
      const dir = join(BENCH_DIR, 'pre-commit')
      resetDir(dir)
      const ref = join(dir, 'ref')
      const made = spawnSync(process.execPath, [join(REPO, 'scripts', 'release.mjs'), '--ref', ref], {
        encoding: 'utf8',
      })
      if (made.status !== 0) throw new Error(`release --ref: ${made.stderr.trim().split('\n').pop()}`)
      const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@example.com' }
      gitEnv.GIT_COMMITTER_NAME = 'b'
      gitEnv.GIT_COMMITTER_EMAIL = 'b@example.com'
      for (const args of [
        ['init', '-q'],
        ['add', '-A', '-f', '.'],
        ['commit', '-q', '-m', 'r'],
        ['tag', 'v0'],
      ]) {
        const g = spawnSync('git', args, { cwd: ref, env: gitEnv, encoding: 'utf8' })
        if (g.status !== 0) throw new Error(`git ${args[0]}: ${g.stderr.trim()}`)
      }
      const ws = join(dir, 'ws')
      mkdirSync(ws)
      spawnSync('git', ['init', '-q'], { cwd: ws })
      const ids = ['ongrid-skill-validate', 'ongrid-skill-lint', 'ongrid-skill-test']
      writeFileSync(
        join(ws, '.pre-commit-config.yaml'),
        `repos:\n  - repo: ${ref}\n    rev: v0\n    hooks:\n${ids.map((id) => `      - id: ${id}\n`).join('')}`,
      )
      const home = join(dir, 'pre-commit-home')
      const sh = (s) => `'${s.replaceAll("'", "'\\''")}'`
      return {
        argv: [
          'sh',
          '-c',
          `rm -rf ${sh(home)} && cd ${sh(ws)} && PRE_COMMIT_HOME=${sh(home)} pre-commit install-hooks`,
        ],
      }
    },
    budgets: [{ metric: 'wall', max: 15 }],
  },
  {
    name: 'sea-version',
    title:
      'ongrid-skill-linux-x64 --version (npm run build:sea; cold start, against `version`); size: the file',
    prepare: () => {
      const sea = join(BENCH_DIR, 'ongrid-skill-linux-x64')
      const r = spawnSync(process.execPath, [join(REPO, 'scripts', 'build-sea.mjs'), sea], {
        encoding: 'utf8',
      })
      if (r.status !== 0) throw new Error(`build:sea: ${r.stderr.trim().split('\n').pop()}`)
      return {
        argv: [sea, '--version'],
        size: () => statSync(sea).size,
        check: (out) =>
          /^ongrid-skill\/\S+ /.test(readFileSync(out, 'utf8')) ? null : 'no version line on stdout',
      }
    },
  },
  {
    name: 'sea-validate-1',
    title: 'ongrid-skill-linux-x64 validate <one pack> (against validate-1)',
    prepare: () => ({
      argv: [join(BENCH_DIR, 'ongrid-skill-linux-x64'), 'validate', join(REPO, 'examples/skills/disk_usage')],
      check: (out) => (/no problems/.test(readFileSync(out, 'utf8')) ? null : 'not clean'),
    }),
  },

  // ---- Figures for commands still to come: declared with their budgets, skipped until the
  // command answers --help. Write `prepare` when the command lands (sketches below).
  {
    name: 'validate-1',
    title: './bin/run.js validate <one pack>',
    requires: 'validate',
    prepare: () => ({
      argv: [BIN, 'validate', join(REPO, 'examples/skills/disk_usage')],
      check: (out) =>
        /^✔ 1 file checked \(1 manifest\): no problems\nroot: [^\n]+ \(assumed; --root to set it\)\n$/.test(
          readFileSync(out, 'utf8'),
        )
          ? null
          : 'not clean',
    }),
    budgets: [{ metric: 'wall', ratioTo: FLOOR, max: 1.4 }],
  },
  // ---- The first lint a new user times: a pack as `init` makes it (each template has a
  // `pattern`, judged by schema/redos-pattern, and cases, whose args are checked against it).
  ...['python', 'node', 'bash', 'go'].map((template) => ({
    name: `lint-init-${template}`,
    title: `./bin/run.js lint <the pack \`init -t ${template}\` makes>${template === 'bash' ? " (ShellCheck's result removed before each run: a script ShellCheck has not seen)" : ''}`,
    requires: 'lint',
    rss: true,
    prepare: () => ({
      argv: [BIN, 'lint', initPack(template)],
      check: lintClean,
      // Each figure its own cache dir; the bash pack's ShellCheck result removed before each run.
      ...ownCache(`lint-init-${template}`, template === 'bash' ? ['shellcheck'] : null),
    }),
    budgets: [
      { metric: 'wall', ratioTo: FLOOR, max: 1.4 },
      { metric: 'rss', ratioTo: 'lint-init-no-pattern', max: 1.05 },
    ],
  })),
  {
    name: 'lint-init-bash-warm',
    title:
      "./bin/run.js lint <the pack of lint-init-bash>, ShellCheck's result kept by init (the pack's first lint)",
    requires: 'lint',
    rss: true,
    prepare: () => {
      const cache = ownCache('lint-init-bash-warm')
      return { argv: [BIN, 'lint', initPack('bash', true, cache.env)], check: lintClean, ...cache }
    },
    budgets: [{ metric: 'wall', ratioTo: FLOOR, max: 1.4 }],
  },
  {
    name: 'lint-init-python-first',
    title:
      './bin/run.js lint <the pack of lint-init-python> with no cache of the user’s own (a first run, a CI job): the build’s code cache',
    requires: 'lint',
    rss: true,
    prepare: () => ({
      argv: [BIN, 'lint', initPack('python')],
      check: lintClean,
      ...ownCache('lint-init-python-first', []),
    }),
  },
  {
    name: 'lint-init-no-pattern',
    title:
      './bin/run.js lint <the python pack of lint-init-python without its `pattern`> (the memory the others are held to)',
    requires: 'lint',
    rss: true,
    prepare: () => ({ argv: [BIN, 'lint', initPack('python', false)], check: lintClean }),
  },
  {
    name: 'ajv-1k',
    title:
      'ajv-cli (devDependency) validate: schemas/skill.schema.json over the 1,000 manifests of validate-1k and lint-1k',
    prepare: (ctx) => {
      const root = ctx.tree(JSON_1K).root
      return {
        argv: [
          join(REPO, 'node_modules', '.bin', 'ajv'),
          'validate',
          '--spec=draft2020',
          '-s',
          join(REPO, 'schemas', 'skill.schema.json'),
          '-d',
          `${root}/**/skill.json`,
          '--errors=text',
        ],
        exitCodes: [1], // the planted type errors and bad names are invalid
        // A node program too: it starts as bin/run.js does, without parsing extra CAs.
        unsetEnv: ['NODE_EXTRA_CA_CERTS'],
        check: (out, err) => {
          const text = readFileSync(out, 'utf8') + readFileSync(err, 'utf8')
          const n = (text.match(/\/skill\.json (valid|invalid)$/gm) ?? []).length
          return n === 1000 ? null : `ajv answered for ${n} of 1000 manifests`
        },
      }
    },
  },
  {
    name: 'validate-1k',
    title: './bin/run.js validate <tree of 1,000 packs> (the manifests of ajv-1k)',
    requires: 'validate',
    prepare: (ctx) => ({
      argv: [BIN, 'validate', ctx.tree(JSON_1K).root],
      exitCodes: [1],
      check: (out) => checkSummary(out),
    }),
    budgets: [{ metric: 'wall', ratioTo: 'ajv-1k', max: 0.5 }],
  },
  {
    name: 'lint-1k',
    title:
      "./bin/run.js lint <tree of 1,000 packs> (the manifests of ajv-1k; ShellCheck's results kept since the warm-up)",
    requires: 'lint',
    prepare: (ctx) =>
      warmed({
        argv: [BIN, 'lint', ctx.tree(JSON_1K).root],
        exitCodes: [1],
        check: (out) => checkSummary(out),
        ...ownCache('lint-1k'),
      }),
    budgets: [{ metric: 'wall', ratioTo: 'ajv-1k', max: 0.6 }],
  },
  {
    name: 'lint-1k-warm',
    title: './bin/run.js lint --cache <the tree of lint-1k>, unchanged since an earlier lint --cache',
    requires: 'lint',
    prepare: (ctx) =>
      warmed({
        argv: [BIN, 'lint', ctx.tree(JSON_1K).root, '--cache'],
        exitCodes: [1],
        check: (out, err) =>
          checkSummary(out) ?? (readFileSync(err, 'utf8') === '' ? null : 'said something on stderr'),
        ...ownCache('lint-1k-warm'),
      }),
    budgets: [{ metric: 'wall', ratioTo: 'lint-1k', max: 0.75 }],
  },
  {
    name: 'entry-direct',
    title: 'an entry that echoes its input, run directly (the base of run-overhead)',
    prepare: () => ({ argv: [join(benchPack('echo', '#!/bin/sh\ncat\n'), 'run.sh')], input: '{"path":"/"}' }),
  },
  {
    name: 'run-overhead',
    title: './bin/run.js run <echo pack> (audit row included), over floor-bare',
    requires: 'run',
    prepare: () => ({
      argv: [
        BIN,
        'run',
        benchPack('echo', '#!/bin/sh\ncat\n'),
        '--args',
        '{"path":"/"}',
        '--audit-db',
        join(BENCH_DIR, 'audit.db'),
      ],
      check: (out) => (readFileSync(out, 'utf8') === '{"path":"/"}' ? null : 'stdout is not the echoed args'),
    }),
    // What a user waits for beyond starting node: the CLI's start, the entry, the audit row.
    budgets: [{ metric: 'wall', minus: FLOOR, max: 0.012 }],
  },
  {
    name: 'eval-replay',
    title:
      './bin/run.js eval --replay <a pack, three cases> (recorded once against a scripted server): eval’s own cost, the model’s time taken out',
    requires: 'eval',
    prepare: async () => {
      const dir = join(BENCH_DIR, 'eval')
      resetDir(dir)
      return { argv: await evalReplay(dir, BIN) }
    },
    // Starting the CLI, the loader's scan, the manager's request bytes, the OpenAI client, three
    // cases of one or two rounds each (two real runs of the pack) and the scoring: within 6 ×
    // starting node (first measured on an idle machine: 5.2 ×, 136 ms).
    budgets: [{ metric: 'wall', ratioTo: FLOOR, max: 6 }],
  },
  {
    name: 'run-trace',
    title:
      './bin/run.js run --trace <echo pack> (audit row included): the cost of tracing, over run-overhead',
    requires: 'run',
    needs: 'strace',
    prepare: () => ({
      argv: [
        BIN,
        'run',
        benchPack('echo', '#!/bin/sh\ncat\n'),
        '--args',
        '{"path":"/"}',
        '--trace',
        '--audit-db',
        join(BENCH_DIR, 'audit.db'),
      ],
      check: (out) => (readFileSync(out, 'utf8') === '{"path":"/"}' ? null : 'stdout is not the echoed args'),
    }),
    // strace's start, the traced entry, and the trace read back into effects.
    budgets: [{ metric: 'wall', minus: 'run-overhead', max: 0.1 }],
  },
  {
    name: 'run-50-execs',
    title: './bin/run.js run <pack starting 50 processes> (the base of run-trace-50-execs)',
    requires: 'run',
    prepare: () => ({ argv: [BIN, 'run', execsPack(), '--no-audit'] }),
  },
  {
    name: 'run-trace-50-execs',
    title: './bin/run.js run --trace <pack starting 50 processes>: each traced process over run-50-execs',
    requires: 'run',
    needs: 'strace',
    prepare: () => ({ argv: [BIN, 'run', execsPack(), '--no-audit', '--trace'] }),
    budgets: [{ metric: 'wall', minus: 'run-50-execs', per: 50, max: 0.01 }],
  },
  {
    name: 'run-json-100m',
    title: './bin/run.js run --json <pack printing 100 MiB on stdout>',
    requires: 'run',
    rss: true,
    prepare: () => ({
      argv: [
        BIN,
        'run',
        benchPack('spew', "#!/bin/sh\nhead -c 104857600 /dev/zero | tr '\\0' x\n"),
        '--json',
        '--no-audit',
      ],
      exitCodes: [1],
      check: (out) =>
        /stdout is not valid JSON/.test(readFileSync(out, 'utf8'))
          ? null
          : 'expected the manager’s non-JSON stdout error',
    }),
    budgets: [{ metric: 'rss', max: 150 * MB }],
  },
  {
    name: 'test-1',
    title: './bin/run.js test <echo pack with 1 case> (the base of test-per-case)',
    requires: 'test',
    prepare: () => ({
      argv: [BIN, 'test', casePack('cases_1', 1), '--format', 'tap'],
      check: (out) =>
        /\n# pass 1\n# fail 0\n$/.test(readFileSync(out, 'utf8')) ? null : 'not 1 passing case',
    }),
  },
  {
    name: 'test-per-case',
    title:
      './bin/run.js test <echo pack with 201 cases> -j 1: each case over test-1, less the entry’s own time',
    requires: 'test',
    prepare: () => ({
      argv: [BIN, 'test', casePack('cases_201', 201), '--format', 'tap', '-j', '1'],
      check: (out) =>
        /\n# pass 201\n# fail 0\n$/.test(readFileSync(out, 'utf8')) ? null : 'not 201 passing cases',
    }),
    // ((median − test-1) / 200 cases) − entry-direct: what the executor and the checks add to a case.
    budgets: [{ metric: 'wall', minus: 'test-1', per: 200, lessEach: 'entry-direct', max: 0.015 }],
  },
  {
    name: 'test-1000-j4',
    title: './bin/run.js test <echo pack with 1,000 cases> -j 4',
    requires: 'test',
    rss: true,
    prepare: () => ({
      argv: [BIN, 'test', casePack('cases_1000', 1000), '--format', 'tap', '-j', '4'],
      check: (out) =>
        /\n# pass 1000\n# fail 0\n$/.test(readFileSync(out, 'utf8')) ? null : 'not 1000 passing cases',
    }),
    budgets: [
      { metric: 'wall', max: 5 },
      { metric: 'rss', max: 150 * MB },
    ],
  },
  {
    name: 'load-dirs-100',
    title: './bin/run.js load-dirs <tree of 100 packs>: the CLI’s cold start over 100 packs',
    requires: 'load-dirs',
    prepare: (ctx) => {
      const tree = ctx.tree({ packs: 100, groups: 10, seed: 1 })
      return { argv: [BIN, 'load-dirs', tree.root], check: (out) => checkLoaderLines(out, tree.expect) }
    },
  },
  {
    name: 'mcp-list-100',
    title: './bin/run.js mcp <tree of 100 packs>: start, initialize, the first tools/list answer, exit',
    requires: 'mcp',
    prepare: (ctx) => {
      const tree = ctx.tree({ packs: 100, groups: 10, seed: 1 })
      return {
        argv: [BIN, 'mcp', tree.root, '--no-audit'],
        input: mcpInput(0, true),
        check: (out, err) => checkMcpList(out, err),
      }
    },
    budgets: [{ metric: 'wall', ratioTo: 'load-dirs-100', max: 2 }],
  },
  {
    name: 'mcp-calls-0',
    title: './bin/run.js mcp <echo pack>: start, initialize, exit (the base of mcp-call-overhead)',
    requires: 'mcp',
    prepare: () => ({
      argv: [...mcpEcho(), '--jobs', '1'],
      input: mcpInput(0),
      check: (out) => checkMcpCalls(out, 0),
    }),
  },
  {
    name: 'mcp-calls-1k',
    title: './bin/run.js mcp <echo pack> --jobs 1: 1,000 tools/call one after another (audit rows included)',
    requires: 'mcp',
    rss: true,
    heap: true,
    prepare: () => ({
      argv: [...mcpEcho(), '--jobs', '1'],
      input: mcpInput(1000),
      check: (out) => checkMcpCalls(out, 1000),
    }),
    budgets: [
      // Per call, over running the entry: (1k calls − none) / 1000 − entry-direct.
      { metric: 'wall', minus: 'mcp-calls-0', per: 1000, lessEach: 'entry-direct', max: 0.01 },
    ],
  },
  {
    name: 'mcp-calls-10k',
    title: './bin/run.js mcp <echo pack> --jobs 4: 10,000 tools/call (2 runs: minutes each under load)',
    requires: 'mcp',
    rss: true,
    heap: true,
    runs: 2,
    prepare: () => ({
      argv: [...mcpEcho(), '--jobs', '4'],
      input: mcpInput(10_000),
      check: (out) => checkMcpCalls(out, 10_000),
    }),
    // Memory stays flat: after ten times the calls, about the live heap of a thousand (a leak
    // grows it); the peak is bounded as load-dirs-10k's is. The peak of a thousand calls is no
    // base: V8 has not grown its heap to its steady size by then (peaks: 1k 111 MB, 10k 136 MB,
    // 30k 148 MB; live heap 10.8, 10.5, 10.5 MB).
    budgets: [
      { metric: 'heap', ratioTo: 'mcp-calls-1k', max: 1.25 },
      { metric: 'rss', max: 200 * MB },
    ],
  },
  {
    name: 'lsp-latency',
    title: 'ongrid-skill lsp: diagnostics of a pack after a change (100 changes, each awaited; no pause)',
    requires: 'lsp',
    prepare: () => {
      const file = join(benchPack('lsp', '#!/bin/sh\ncat\n'), 'skill.json')
      return {
        argv: [process.execPath, join(REPO, 'scripts/bench/lsp-latency-driver.mjs'), BIN, file, '100'],
        check: (out) => checkLspLatency(out, 0.03),
      }
    },
  },
  {
    name: 'lsp-edits-1k',
    title: './bin/run.js lsp: open a skill.json, 1,000 changes sent at once, shutdown',
    requires: 'lsp',
    rss: true,
    heap: true,
    prepare: () => {
      const file = join(benchPack('lsp', '#!/bin/sh\ncat\n'), 'skill.json')
      return {
        argv: [BIN, 'lsp', '--stdio'],
        input: lspInput(file, 1000),
        check: (out) => checkLspSession(out, file),
      }
    },
  },
  {
    name: 'lsp-edits-10k',
    title: './bin/run.js lsp: 10,000 changes (2 runs)',
    requires: 'lsp',
    rss: true,
    heap: true,
    runs: 2,
    prepare: () => {
      const file = join(benchPack('lsp', '#!/bin/sh\ncat\n'), 'skill.json')
      return {
        argv: [BIN, 'lsp', '--stdio'],
        input: lspInput(file, 10_000),
        check: (out) => checkLspSession(out, file),
      }
    },
    // Memory stays flat over ten times the edits: buffers are replaced, not kept.
    budgets: [
      { metric: 'heap', ratioTo: 'lsp-edits-1k', max: 1.25 },
      { metric: 'rss', max: 200 * MB },
    ],
  },
  {
    name: 'entry-nap',
    title: 'an entry that sleeps 0.2 s and prints its start and end, run directly (the base of mcp-jobs-4)',
    prepare: () => ({ argv: [join(napPack(), 'run.sh')], input: '{}' }),
  },
  {
    name: 'mcp-jobs-4',
    title:
      './bin/run.js mcp <nap pack> --jobs 4: 100 tools/call at once (each entry 0.2 s), 4 running at a time',
    requires: 'mcp',
    prepare: () => ({
      argv: [BIN, 'mcp', napPack(), '--no-audit', '--jobs', '4'],
      input: mcpInput(100, false, 'bench_nap'),
      check: (out) => checkMcpJobs(out, 100, 4),
    }),
    budgets: [
      // 100 calls, 4 at a time: 25 rounds of the entry, plus at most 4 × 10 ms of overhead each.
      { metric: 'wall', minus: 'mcp-calls-0', per: 25, lessEach: 'entry-nap', max: 0.04 },
    ],
  },
  {
    name: 'audit-tail-1m',
    title: './bin/run.js audit tail -n 1000 --json --db sqlite:<1,000,000 audit rows>',
    requires: 'audit tail',
    prepare: () => {
      const db = seedAuditDb({ dir: join(BENCH_DIR, 'audit'), rows: 1_000_000, seed: 1 })
      if (db.generated)
        process.stderr.write(
          `bench: generated ${db.rows} audit rows in ${(db.ms / 1000).toFixed(1)} s → ${db.path}\n`,
        )
      return {
        argv: [BIN, 'audit', 'tail', '-n', '1000', '--json', '--db', `sqlite:${db.path}`],
        check: (out) => checkAuditTail(out, db.rows, 1000),
      }
    },
    budgets: [{ metric: 'wall', max: 1 }],
  },
  {
    name: 'marketplace-check-1',
    title: './bin/run.js marketplace check <a one-skill pack> (cold start)',
    requires: 'marketplace check',
    prepare: () => ({
      argv: [BIN, 'marketplace', 'check', join(REPO, 'examples/marketplace/hello-pack')],
      check: (out) => (/install: {4}accepted/.test(readFileSync(out, 'utf8')) ? null : 'not accepted'),
    }),
    budgets: [{ metric: 'wall', ratioTo: FLOOR, max: 2.5 }],
  },
  {
    name: 'marketplace-check-1k',
    title: './bin/run.js marketplace check <signed pack of 1,000 files>',
    requires: 'marketplace check',
    prepare: () => ({
      argv: [BIN, 'marketplace', 'check', marketplacePack(join(BENCH_DIR, 'marketplace'), BIN)],
      check: (out) => (/skills: {5}250: /.test(readFileSync(out, 'utf8')) ? null : 'not 250 skills'),
    }),
    budgets: [{ metric: 'wall', max: 0.5 }],
  },
  {
    name: 'marketplace-verify-1k',
    title: './bin/run.js marketplace verify <signed pack of 1,000 files>',
    requires: 'marketplace verify',
    prepare: () => ({
      argv: [BIN, 'marketplace', 'verify', marketplacePack(join(BENCH_DIR, 'marketplace'), BIN)],
      check: (out) => (/signature: {2}verified/.test(readFileSync(out, 'utf8')) ? null : 'not verified'),
    }),
    budgets: [{ metric: 'wall', max: 0.5 }],
  },
  {
    name: 'marketplace-pack-1k',
    title: './bin/run.js marketplace pack <signed pack of 1,000 files> (checks its own output)',
    requires: 'marketplace pack',
    prepare: () => ({
      argv: [
        BIN,
        'marketplace',
        'pack',
        marketplacePack(join(BENCH_DIR, 'marketplace'), BIN),
        '-o',
        join(BENCH_DIR, 'marketplace-1k.tar.gz'),
        '--force',
      ],
      check: (out) => (/signature verified/.test(readFileSync(out, 'utf8')) ? null : 'not checked'),
    }),
    budgets: [{ metric: 'wall', max: 1 }],
  },
]

/** The 1,000-pack tree validate, lint and ajv-cli are compared on: every manifest parses as JSON. */
const JSON_1K = { packs: 1000, groups: 10, seed: 1, syntaxOk: true }

/** validate's and lint's last lines over JSON_1K. */
function checkSummary(stdoutPath) {
  return /in 1000 files checked \(1000 manifests\)\nroot: [^\n]+ \(assumed; --root to set it\)\n$/.test(
    readFileSync(stdoutPath, 'utf8'),
  )
    ? null
    : 'no summary'
}

/**
 * Builds scripts/bench/go-loader (standard library only) with the Go toolchain the
 * differential tests use — `go` in PATH, or ONGRID_BENCH_GO — offline, into .bench/.
 * Returns the binary's path; throws (the figure fails, never passes) when Go is missing.
 */
function buildGoLoader() {
  const go = process.env.ONGRID_BENCH_GO || 'go'
  const bin = join(BENCH_DIR, 'go-loader')
  const env = { ...process.env, GOFLAGS: '-mod=mod', GOPROXY: 'off', GOTOOLCHAIN: 'local', GOWORK: 'off' }
  if (!env.GOCACHE && !env.HOME && !env.XDG_CACHE_HOME) env.GOCACHE = join(tmpdir(), 'ongrid-bench-gocache')
  const r = spawnSync(go, ['build', '-o', bin, '.'], {
    cwd: join(REPO, 'scripts', 'bench', 'go-loader'),
    env,
    encoding: 'utf8',
  })
  if (r.error) throw new Error(`${go}: ${r.error.message} (the Go loader reference needs Go)`)
  if (r.status !== 0) throw new Error(`go build: ${r.stderr.trim().split('\n').pop()}`)
  return bin
}

/** A one-file pack under .bench/packs/NAME (entry run.sh with this script), made once. */
function benchPack(name, script) {
  const dir = join(BENCH_DIR, 'packs', name)
  const manifest = JSON.stringify({
    name: `bench_${name}`,
    description: 'bench pack',
    entry: 'run.sh',
    timeout_seconds: 60,
  })
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'skill.json'), manifest)
  writeFileSync(join(dir, 'run.sh'), script, { mode: 0o755 })
  return dir
}

/**
 * The pack `init -t TEMPLATE` makes, under .bench/packs/init-TEMPLATE (made afresh each bench
 * run); `pattern: false` removes the schema's one `pattern` (the memory baseline).
 */
function initPack(template, pattern = true, env = {}) {
  const parent = join(BENCH_DIR, 'packs', `init-${template}${pattern ? '' : '-no-pattern'}`)
  resetDir(parent)
  const r = spawnSync(
    BIN,
    ['init', 'check_port', '-y', '-q', '-t', template, '-d', 'Checks whether a TCP port is open on a host'],
    {
      cwd: parent,
      env: { ...process.env, ...env },
      encoding: 'utf8',
    },
  )
  if (r.status !== 0)
    throw new Error(`init -t ${template}: ${(r.stderr || r.stdout).trim().split('\n').pop()}`)
  const dir = join(parent, 'check-port')
  if (!pattern) {
    const file = join(dir, 'skill.json')
    const manifest = JSON.parse(readFileSync(file, 'utf8'))
    if (typeof manifest.schema?.properties?.host?.pattern !== 'string')
      throw new Error('the template has no host pattern')
    delete manifest.schema.properties.host.pattern
    writeFileSync(file, JSON.stringify(manifest, null, 2))
  }
  return dir
}

/**
 * A figure's own cache dir (XDG_CACHE_HOME under .bench/cache/NAME: the launcher's code cache,
 * ShellCheck's results, lint --cache); `cold`: what of ongrid-skill's dir in it is removed before
 * each run (['shellcheck']: ShellCheck's results; []: all of it, a user's first run).
 */
function ownCache(name, cold = null) {
  const dir = join(BENCH_DIR, 'cache', name)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  return {
    env: { XDG_CACHE_HOME: dir },
    ...(cold === null ? {} : { fresh: [join(dir, 'ongrid-skill', ...cold)] }),
  }
}

/** The plan, after one untimed run of it: what a cache keeps is there from the first measured run. */
function warmed(plan) {
  const r = spawnSync(plan.argv[0], plan.argv.slice(1), {
    cwd: REPO,
    env: { ...process.env, ...plan.env },
    stdio: 'ignore',
  })
  if (r.error) throw r.error
  return plan
}

/** A lint that found nothing says so in its first line. */
function lintClean(out) {
  const text = readFileSync(out, 'utf8')
  return /^✔ 1 file checked \(1 manifest\): no problems\n/.test(text)
    ? null
    : `not clean: ${text.split('\n')[0]}`
}

/** A pack whose entry starts 50 processes (/bin/true), one after another: what tracing costs per process. */
function execsPack() {
  return benchPack('execs', `#!/bin/sh\ncat >/dev/null\n${'/bin/true\n'.repeat(50)}echo '{}'\n`)
}

/** An echo pack under .bench/packs/NAME with `n` trivial cases in tests/cases.json, made once. */
function casePack(name, n) {
  const dir = benchPack(name, '#!/bin/sh\ncat\n')
  const cases = Array.from({ length: n }, (_, i) => ({
    name: `echoes ${i}`,
    args: { i },
    expect: { result: { i } },
  }))
  mkdirSync(join(dir, 'tests'), { recursive: true })
  writeFileSync(join(dir, 'tests', 'cases.json'), JSON.stringify(cases))
  return dir
}

/** `mcp` over the echo pack (the pack dir as its allow-list dir), audit rows to the bench's store. */
function mcpEcho() {
  return [BIN, 'mcp', benchPack('echo', '#!/bin/sh\ncat\n'), '--audit-db', join(BENCH_DIR, 'audit-mcp.db')]
}

/** A pack whose entry sleeps 0.2 s and prints its start and end times (ns): calls' overlap is read from the answers. */
function napPack() {
  return benchPack(
    'nap',
    '#!/bin/sh\na=$(date +%s%N)\nsleep 0.2\nb=$(date +%s%N)\nprintf \'{"a":%s,"b":%s}\' "$a" "$b"\n',
  )
}

/** JSON-RPC lines on stdin: initialize, initialized, then a tools/list or `calls` tools/call. */
function mcpInput(calls, list = false, tool = 'bench_echo') {
  const rpc = (id, method, params) =>
    `${JSON.stringify({ jsonrpc: '2.0', ...(id === null ? {} : { id }), method, params })}\n`
  let s =
    rpc(1, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'bench', version: '0' },
    }) + rpc(null, 'notifications/initialized', {})
  if (list) s += rpc(2, 'tools/list', {})
  for (let i = 0; i < calls; i++) {
    s += rpc(i + 2, 'tools/call', { name: tool, arguments: { path: '/', n: i } })
  }
  return s
}

/** The tools/list answer names every tool the summary on stderr counts. */
function checkMcpList(stdoutPath, stderrPath) {
  const lines = readFileSync(stdoutPath, 'utf8').trim().split('\n')
  const list = lines.map((l) => JSON.parse(l)).find((m) => m.id === 2)
  const served = /mcp: serving (\d+) tools? /.exec(readFileSync(stderrPath, 'utf8'))
  if (!list?.result?.tools) return 'no tools/list answer'
  if (!served || Number(served[1]) !== list.result.tools.length || list.result.tools.length === 0)
    return `tools/list has ${list.result.tools.length} tools, stderr says ${served?.[1]}`
  return null
}

/** Every call answered with its own args echoed. */
function checkMcpCalls(stdoutPath, calls) {
  const answers = readFileSync(stdoutPath, 'utf8').trim().split('\n')
  if (answers.length !== calls + 1) return `${answers.length - 1} answers to ${calls} calls`
  for (const line of answers.slice(1)) {
    const m = JSON.parse(line)
    if (m.result?.content?.[0]?.text !== `{"n":${m.id - 2},"path":"/"}`)
      return `a wrong answer: ${line.slice(0, 200)}`
  }
  return null
}

/**
 * Every call answered, and the entries' [start, end] intervals (from their answers) never
 * overlap more than `jobs` deep, and do reach it: the bound holds and the slots are used.
 */
function checkMcpJobs(stdoutPath, calls, jobs) {
  const answers = readFileSync(stdoutPath, 'utf8').trim().split('\n').slice(1)
  if (answers.length !== calls) return `${answers.length} answers to ${calls} calls`
  const edges = []
  for (const line of answers) {
    const text = JSON.parse(line).result?.content?.[0]?.text
    const m = /^\{"a":(\d+),"b":(\d+)\}$/.exec(text ?? '')
    if (!m) return `a wrong answer: ${line.slice(0, 200)}`
    edges.push([BigInt(m[1]), 1], [BigInt(m[2]), -1])
  }
  // Ends before starts at the same instant: touching intervals do not overlap.
  edges.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] - y[1]))
  let running = 0
  let most = 0
  for (const [, d] of edges) {
    running += d
    most = Math.max(most, running)
  }
  return most === jobs ? null : `${most} entries ran at once (--jobs ${jobs})`
}

/** load-dirs prints one line per manifest; compare the outcomes with what the generator planted. */
function checkLoaderLines(stdoutPath, expect) {
  const got = { manifests: 0, registered: 0, parseErrors: 0, buildErrors: 0, duplicates: 0 }
  for (const line of readFileSync(stdoutPath, 'latin1').split('\n')) {
    if (line === '') continue
    got.manifests++
    if (line.startsWith('skill loader: registered subprocess skill ')) got.registered++
    else if (line.startsWith('skill loader: parse ')) got.parseErrors++
    else if (line.startsWith('skill loader: build ')) got.buildErrors++
    else if (/^skill loader: skill ".*" already registered, skipping /.test(line)) got.duplicates++
  }
  const wrong = Object.keys(got).filter((k) => got[k] !== expect[k])
  if (wrong.length === 0) return null
  return `output does not match the generated tree: ${wrong.map((k) => `${k} ${got[k]} (expected ${expect[k]})`).join(', ')}`
}

// ---------------------------------------------------------------------------------------------

function parseArgs(argv) {
  const o = { runs: 7, warmup: 1, only: null, json: false, fail: true, regen: false }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const [flag, inline] =
      a.startsWith('--') && a.includes('=')
        ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]
        : [a, null]
    const value = () => {
      const v = inline ?? argv[++i]
      if (v === undefined) usage(`${flag} needs a value`)
      return v
    }
    const count = (min) => {
      const v = value()
      if (!/^\d+$/.test(v) || Number(v) < min) usage(`${flag} must be an integer ≥ ${min}`)
      return Number(v)
    }
    if (flag === '--runs') o.runs = count(1)
    else if (flag === '--warmup') o.warmup = count(0)
    else if (flag === '--only') o.only = [...(o.only ?? []), ...value().split(',').filter(Boolean)]
    else if (flag === '--json') o.json = true
    else if (flag === '--no-fail') o.fail = false
    else if (flag === '--regen') o.regen = true
    else if (flag === '--help' || flag === '-h') {
      process.stdout.write(
        'usage: node scripts/bench.mjs [--runs N] [--warmup N] [--only NAME[,NAME]] [--json] [--no-fail] [--regen]\n' +
          `figures: ${FIGURES.map((f) => f.name).join(', ')}\n` +
          'exit status: 0 all budgets pass, 1 a budget failed (0 with --no-fail), 2 usage error\n',
      )
      process.exit(0)
    } else usage(`unknown argument ${a}`)
  }
  if (o.only) {
    for (const n of o.only) if (!FIGURES.some((f) => f.name === n)) usage(`no figure named ${n}`)
  }
  return o
}

function usage(msg) {
  process.stderr.write(`bench: ${msg}\nfigures: ${FIGURES.map((f) => f.name).join(', ')}\n`)
  process.exit(2)
}

/** The figures to measure: the --only ones, the floor, and every figure a budget refers to. */
function selectFigures(only) {
  if (!only) return FIGURES
  const want = new Set(['floor', FLOOR, ...only])
  for (let grew = true; grew; ) {
    grew = false
    for (const f of FIGURES) {
      if (!want.has(f.name)) continue
      for (const b of f.budgets ?? []) {
        for (const dep of [b.ratioTo ?? b.minus, b.lessEach]) {
          if (dep && !want.has(dep)) {
            want.add(dep)
            grew = true
          }
        }
      }
    }
  }
  return FIGURES.filter((f) => want.has(f.name))
}

const available = new Map()

/** Does `./bin/run.js <cmd> --help` answer, with exit 0 and the command's usage line? (cached) */
function commandAvailable(cmd, env) {
  if (!available.has(cmd)) available.set(cmd, probeCommand(cmd, env))
  return available.get(cmd)
}

function probeCommand(cmd, env) {
  const r = spawnSync(BIN, [...cmd.split(' '), '--help'], {
    cwd: REPO,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  })
  return r.status === 0 && r.stdout.includes(`ongrid-skill ${cmd}`)
}

/** Newest mtime under a dir (ms), 0 when it does not exist. */
function newest(dir) {
  if (!existsSync(dir)) return 0
  let t = 0
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) t = Math.max(t, statSync(join(e.parentPath ?? e.path, e.name)).mtimeMs)
  }
  return t
}

function fmtMs(ms) {
  if (ms === null || ms === undefined) return '—'
  return ms >= 1000 ? `${(ms / 1000).toFixed(3)} s` : `${ms.toFixed(1)} ms`
}
const fmtMB = (b) => (b === null || b === undefined ? '—' : `${(b / MB).toFixed(1)} MB`)

async function main() {
  const opts = parseArgs(process.argv.slice(2))
  const log = (s) => process.stderr.write(`${s}\n`)
  mkdirSync(OUT_DIR, { recursive: true })
  resetDir(RSS_DIR)
  // The same node for the floor and for ./bin/run.js (whose shebang looks `node` up in PATH).
  const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` }
  delete env.NODE_OPTIONS
  delete env.ONGRID_SKILLS_EXTERNAL_DIRS

  const notes = []
  const srcT = newest(join(REPO, 'src'))
  const distT = newest(join(REPO, 'dist'))
  if (distT === 0) notes.push('dist/ is missing: run `npm run build` first')
  else if (srcT > distT)
    notes.push('src/ is newer than dist/: the figures measure the last build (`npm run build`)')

  if (process.env.NODE_EXTRA_CA_CERTS !== undefined) {
    notes.push(
      'NODE_EXTRA_CA_CERTS is set: node parses those CAs before running any code, so `floor` includes that; bin/run.js keeps the variable from node’s startup, so ratios are taken against floor-bare, which does not',
    )
  }
  const busy = loadavg()[0] // at the start; the report also shows the load at the end
  if (busy > cpus().length * 0.5) {
    notes.push(
      `the machine is busy (1-min load ${busy.toFixed(2)} on ${cpus().length} CPUs): figures are noisy`,
    )
  }

  const trees = new Map()
  const ctx = {
    /** A generated pack tree (cached under .bench/trees/, keyed by its parameters). */
    tree: (params) => {
      const key = JSON.stringify(params)
      if (!trees.has(key)) {
        const t = generateTree({ baseDir: join(BENCH_DIR, 'trees'), regen: opts.regen, ...params })
        log(
          t.generated
            ? `bench: generated ${params.packs} packs in ${(t.ms / 1000).toFixed(1)} s → ${t.root}`
            : `bench: using cached tree ${t.root}`,
        )
        trees.set(key, t)
      }
      return trees.get(key)
    },
  }

  // Setup: availability, then prepare. Figures that cannot run get a status now.
  const figures = selectFigures(opts.only).map((f) => ({
    def: f,
    status: 'ok',
    reason: null,
    plan: null,
    runs: [],
  }))
  for (const fig of figures) {
    const f = fig.def
    if (f.requires && !commandAvailable(f.requires, env)) {
      fig.status = f.pending ? 'skipped' : 'error'
      fig.reason = f.pending
        ? 'skipped: command not available'
        : `command not available (${f.requires} --help failed)`
      continue
    }
    if (f.needs && spawnSync('sh', ['-c', `command -v ${f.needs}`], { stdio: 'ignore' }).status !== 0) {
      fig.status = 'skipped'
      fig.reason = `skipped: ${f.needs} not installed`
      continue
    }
    if (!f.prepare) {
      fig.status = 'skipped'
      fig.reason = 'skipped: figure not written yet (the command exists; write its prepare)'
      continue
    }
    try {
      fig.plan = await f.prepare(ctx)
    } catch (e) {
      fig.status = 'error'
      fig.reason = `setup failed: ${e.message}`
    }
  }

  // Rounds: warm-up rounds (discarded), then measured rounds; every figure once per round.
  const active = () => figures.filter((f) => f.status === 'ok')
  const total = opts.warmup + opts.runs
  for (let round = 0; round < total; round++) {
    if (process.stderr.isTTY) {
      process.stderr.write(`\rbench: ${round < opts.warmup ? 'warm-up' : 'run'} ${round + 1}/${total} `)
    }
    for (const fig of active()) {
      // A figure with `runs` (minutes per run) skips the warm-up and stops after that many.
      const limit = fig.def.runs
      if (limit !== undefined && (round < opts.warmup || round >= opts.warmup + limit)) continue
      const { argv, input, exitCodes = [0], check, unsetEnv = [], env: figEnv = {}, fresh = [] } = fig.plan
      const stdout = join(OUT_DIR, `${fig.def.name}.stdout`)
      const stderr = join(OUT_DIR, `${fig.def.name}.stderr`)
      const once = (probed) => {
        for (const d of fresh) rmSync(d, { recursive: true, force: true })
        const r = runOnce({
          cmd: argv[0],
          args: argv.slice(1),
          cwd: REPO,
          env: {
            ...Object.fromEntries(Object.entries(env).filter(([k]) => !unsetEnv.includes(k))),
            ...figEnv,
          },
          stdout,
          stderr,
          input,
          rss: probed,
          heap: probed && !!fig.def.heap,
          rssDir: RSS_DIR,
        })
        const bad =
          r.error ??
          (r.signal ? `killed by ${r.signal}` : null) ??
          (exitCodes.includes(r.code) ? null : `exit status ${r.code} (see ${stderr})`) ??
          (check ? check(stdout, stderr) : null)
        return { r, bad }
      }
      const { r, bad } = timedAndProbed(once, !!fig.def.rss)
      if (bad) {
        fig.status = 'error'
        fig.reason = `run failed: ${bad}`
        continue
      }
      // The 1-min load average as the run ended: what the figure was measured at.
      if (round >= opts.warmup) fig.runs.push({ ...r, load: loadavg()[0] })
    }
  }
  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K')

  // Figures.
  const byName = new Map(figures.map((f) => [f.def.name, f]))
  for (const fig of figures) {
    fig.wall = fig.status === 'ok' ? stats(fig.runs.map((r) => r.wallMs)) : null
    fig.load = fig.status === 'ok' ? stats(fig.runs.map((r) => r.load)) : null
    const peaks = fig.runs.map((r) => r.rssBytes)
    fig.rss = fig.def.rss && fig.status === 'ok' && peaks.every((p) => p !== null) ? stats(peaks) : null
    if (fig.def.rss && fig.status === 'ok' && !fig.rss) fig.rssNote = 'the probe wrote no peak for some runs'
    fig.cpu = fig.rss ? stats(fig.runs.map((r) => r.cpuMs)) : null
    const heaps = fig.runs.map((r) => r.heapBytes)
    fig.heap = fig.def.heap && fig.status === 'ok' && heaps.every((h) => h !== null) ? stats(heaps) : null
    fig.sizeBytes = fig.status === 'ok' && fig.plan?.size ? fig.plan.size() : null
  }
  const floor = byName.get(FLOOR)
  const floorMs = floor?.wall?.median ?? null
  for (const fig of figures) fig.ratio = fig.wall && floorMs ? fig.wall.median / floorMs : null

  // Budgets.
  const budgets = []
  for (const fig of figures) {
    for (const b of fig.def.budgets ?? []) {
      const row = { figure: fig.def.name, text: budgetText(b), status: 'FAIL', measured: null, shown: '' }
      budgets.push(row)
      if (fig.status === 'skipped') {
        row.status = 'SKIP'
        row.shown = fig.reason
        continue
      }
      if (fig.status !== 'ok') {
        row.shown = fig.reason
        continue
      }
      const other = byName.get(b.ratioTo ?? b.minus)
      if ((b.ratioTo || b.minus) && !other?.wall) {
        row.status = other?.status === 'skipped' ? 'SKIP' : 'FAIL'
        row.shown = `${b.ratioTo ?? b.minus}: ${other?.reason ?? 'not measured'}`
        continue
      }
      if (b.metric === 'size') {
        if (fig.sizeBytes === null) {
          row.shown = 'not measured'
          continue
        }
        row.measured = fig.sizeBytes
        row.shown = fmtMB(fig.sizeBytes)
      } else if (b.metric === 'heap') {
        if (!fig.heap || !other?.heap) {
          row.shown = 'not measured: no live heap from the probe on one of the figures'
          continue
        }
        row.measured = fig.heap.max / other.heap.max
        row.shown = `${row.measured.toFixed(2)} × (${fmtMB(fig.heap.max)} / ${fmtMB(other.heap.max)})`
      } else if (b.metric === 'rss' && b.ratioTo) {
        if (!fig.rss || !other.rss) {
          row.shown = `not measured: ${fig.rssNote ?? other.rssNote ?? 'no RSS probe on one of the figures'}`
          continue
        }
        row.measured = fig.rss.max / other.rss.max
        row.shown = `${row.measured.toFixed(2)} × (${fmtMB(fig.rss.max)} / ${fmtMB(other.rss.max)})`
      } else if (b.metric === 'rss') {
        if (!fig.rss) {
          row.shown = `not measured: ${fig.rssNote ?? 'no RSS probe on this figure'}`
          continue
        }
        row.measured = fig.rss.max
        row.shown = `${fmtMB(fig.rss.max)} (largest of ${fig.rss.n} runs)`
      } else if (b.ratioTo) {
        row.measured = fig.wall.median / other.wall.median
        row.shown = `${row.measured.toFixed(2)} × (${fmtMs(fig.wall.median)} / ${fmtMs(other.wall.median)})`
      } else if (b.minus && b.per) {
        const each = byName.get(b.lessEach)?.wall?.median
        if (b.lessEach && each === undefined) {
          row.shown = `${b.lessEach}: not measured`
          continue
        }
        row.measured = ((fig.wall.median - other.wall.median) / b.per - (each ?? 0)) / 1000
        row.shown = `${fmtMs(row.measured * 1000)} ((${fmtMs(fig.wall.median)} − ${fmtMs(other.wall.median)}) / ${b.per}${b.lessEach ? ` − ${fmtMs(each)}` : ''})`
      } else if (b.minus) {
        row.measured = (fig.wall.median - other.wall.median) / 1000
        row.shown = `${fmtMs(row.measured * 1000)} (${fmtMs(fig.wall.median)} − ${fmtMs(other.wall.median)})`
      } else {
        row.measured = fig.wall.median / 1000
        row.shown = `${fmtMs(fig.wall.median)} median`
      }
      row.status = row.measured <= b.max ? 'PASS' : 'FAIL'
    }
  }
  const failed = budgets.filter((b) => b.status === 'FAIL').length
  const env_ = {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpu: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
    loadavgStart: Number(busy.toFixed(2)),
    loadavg: loadavg().map((x) => Number(x.toFixed(2))),
  }

  if (opts.json) {
    const doc = {
      ok: failed === 0,
      ...env_,
      runs: opts.runs,
      warmup: opts.warmup,
      wallMethod: 'spawn to exit, per run (spawnSync; stdout and stderr to files under .bench/out/)',
      rssMethod: RSS_METHOD,
      notes,
      floor: FLOOR,
      floorMedianMs: floorMs,
      figures: figures.map((f) => ({
        name: f.def.name,
        title: f.def.title,
        argv: f.plan?.argv.map((a) => a.replace(`${REPO}/`, './')) ?? null,
        status: f.status,
        reason: f.reason,
        wallMs: f.wall && { ...f.wall, samples: f.runs.map((r) => Number(r.wallMs.toFixed(3))) },
        ratioToFloorBare: f.ratio === null ? null : Number(f.ratio.toFixed(3)),
        peakRssBytes: f.rss && { ...f.rss, samples: f.runs.map((r) => r.rssBytes) },
        liveHeapBytes: f.heap && { ...f.heap, samples: f.runs.map((r) => r.heapBytes) },
        cpuMs: f.cpu && { ...f.cpu, samples: f.runs.map((r) => Number(r.cpuMs.toFixed(3))) },
        loadavg1: f.load && { median: Number(f.load.median.toFixed(2)), max: Number(f.load.max.toFixed(2)) },
        sizeBytes: f.sizeBytes,
      })),
      budgets: budgets.map(({ figure, text, status, measured, shown }) => ({
        figure,
        budget: text,
        status,
        measured,
        shown,
      })),
    }
    process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`)
  } else {
    const w = (s) => process.stdout.write(`${s}\n`)
    w(
      `ongrid-skill bench — node ${env_.node} ${env_.platform}, ${env_.cpu}, 1-min load ${env_.loadavgStart} at start, ${env_.loadavg[0]} at end`,
    )
    w(`${opts.runs} runs per figure after ${opts.warmup} warm-up, interleaved; wall = spawn to exit`)
    for (const n of notes) w(`note: ${n}`)
    w('')
    const rows = [['figure', 'median', 'min', 'max', `× ${FLOOR}`, 'cpu', 'peak RSS', 'load', '']]
    const last = rows[0].length - 1
    for (const f of figures) {
      if (f.status !== 'ok') {
        rows.push([f.def.name, '', '', '', '', '', '', '', f.reason])
        continue
      }
      rows.push([
        f.def.name,
        fmtMs(f.wall.median),
        fmtMs(f.wall.min),
        fmtMs(f.wall.max),
        f.ratio === null ? '—' : f.ratio.toFixed(2),
        f.cpu ? fmtMs(f.cpu.median) : '',
        f.rss ? `${fmtMB(f.rss.median)} (max ${fmtMB(f.rss.max)})` : (f.rssNote ?? ''),
        f.load ? f.load.median.toFixed(1) : '',
        f.def.title,
      ])
    }
    const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => (i === last ? 0 : r[i].length))))
    for (const r of rows) {
      const cells = r.map((c, i) => (i === 0 || i === last ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      w(cells.join('  ').trimEnd())
    }
    for (const f of figures)
      if (f.sizeBytes !== null && f.sizeBytes !== undefined) w(`size: ${f.def.name} ${fmtMB(f.sizeBytes)}`)
    w('')
    for (const b of budgets) w(`${b.status}  ${b.figure}: ${b.text} — ${b.shown}`)
    w('')
    w(
      `peak RSS: ${RSS_METHOD}. cpu: user + system time of that process, probe included (probed figures only). Times are from runs without the probe.`,
    )
    const n = (st) => budgets.filter((b) => b.status === st).length
    w(
      `budgets: ${n('PASS')} pass, ${failed} fail, ${n('SKIP')} skipped (a skip is not a pass)` +
        (failed && !opts.fail ? ' — --no-fail: exit 0' : ''),
    )
  }
  process.exitCode = failed && opts.fail ? 1 : 0
}

/** Bytes under `dir`, as `du -sb` counts them. */
function duBytes(dir) {
  const r = spawnSync('du', ['-sb', dir], { encoding: 'utf8' })
  return r.status === 0 ? Number(r.stdout.split('\t')[0]) : null
}

function budgetText(b) {
  if (b.metric === 'size') return `size ≤ ${b.max / MB} MB`
  if (b.metric === 'heap') return `live heap at exit ≤ ${b.max} × ${b.ratioTo}’s`
  if (b.metric === 'rss' && b.ratioTo) return `peak RSS ≤ ${b.max} × ${b.ratioTo}’s`
  if (b.metric === 'rss') return `peak RSS ≤ ${b.max / MB} MB`
  if (b.ratioTo) return `median wall ≤ ${b.max} × ${b.ratioTo}`
  if (b.minus && b.per)
    return `(median wall − ${b.minus}) / ${b.per}${b.lessEach ? ` − ${b.lessEach}` : ''} ≤ ${fmtMs(b.max * 1000)}`
  if (b.minus) return `median wall − ${b.minus} ≤ ${fmtMs(b.max * 1000)}`
  return `median wall ≤ ${fmtMs(b.max * 1000)}`
}

await main()
