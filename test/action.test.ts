import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { delimiter, dirname, join } from 'node:path'
import { after, describe, test } from 'node:test'
import { parse } from 'yaml'
import { BIN, REPO } from './helpers/cli.js'
import { straceMissing } from './helpers/trace-tools.js'
import { goodPack, makeTree, packWith, tempRoot } from './helpers/tree.js'

/**
 * action.yml run as a runner runs a composite action: each step's `run:` through
 * `bash --noprofile --norc -eo pipefail`, with its `env:` and `working-directory` (expressions
 * evaluated), GITHUB_WORKSPACE, GITHUB_ACTION_PATH, RUNNER_TEMP, and a fresh GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY per step, whose outputs later steps read. `uses:` steps are not run (they
 * need GitHub); their `with:` is evaluated. A failed step skips the rest but `always()` ones.
 */
interface Step {
  id?: string
  name?: string
  if?: string
  uses?: string
  with?: Record<string, string>
  run?: string
  shell?: string
  env?: Record<string, string>
  'working-directory'?: string
}
interface Action {
  inputs: Record<string, { default?: string }>
  outputs: Record<string, { value: string }>
  runs: { using: string; steps: Step[] }
}

const ACTION = parse(readFileSync(join(REPO, 'action.yml'), 'utf8')) as Action
const T = tempRoot('ongrid-action-')
after(T.cleanup)
let n = 0

interface Ran {
  step: Step
  code: number | null
  stdout: string
  stderr: string
}
interface Outcome {
  ok: boolean
  ran: Ran[]
  skipped: Step[]
  uses: { step: Step; with: Record<string, string> }[]
  outputs: Record<string, string>
  summary: string
}

function runAction(workspace: string, withInputs: Record<string, string>, env: Record<string, string> = {}) {
  const temp = join(T.root, `runner-temp-${++n}`)
  mkdirSync(temp, { recursive: true })
  const inputs: Record<string, string> = {}
  for (const [k, v] of Object.entries(ACTION.inputs)) inputs[k] = v.default ?? ''
  for (const [k, v] of Object.entries(withInputs)) {
    assert.ok(k in ACTION.inputs, `action.yml has no input ${k}`)
    inputs[k] = v
  }
  const steps: Record<string, Record<string, string>> = {}
  const ctx = (expr: string): string => {
    const e = expr.trim()
    let m = /^inputs\.([\w-]+)$/.exec(e)
    if (m) return inputs[m[1] as string] ?? ''
    m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(e)
    if (m) return steps[m[1] as string]?.[m[2] as string] ?? ''
    if (e === 'github.action_path') return REPO
    if (e === 'github.workspace') return workspace
    if (e === 'runner.temp') return temp
    throw new Error(`the harness does not evaluate \${{ ${e} }}`)
  }
  const evaluate = (s: string) => s.replace(/\$\{\{(.*?)\}\}/g, (_, e: string) => ctx(e))
  const out: Outcome = { ok: true, ran: [], skipped: [], uses: [], outputs: {}, summary: '' }
  for (const [i, step] of ACTION.runs.steps.entries()) {
    const always = step.if !== undefined && /\balways\(\)/.test(step.if)
    if (!out.ok && !always) {
      out.skipped.push(step)
      continue
    }
    if (step.uses !== undefined) {
      const w: Record<string, string> = {}
      for (const [k, v] of Object.entries(step.with ?? {})) w[k] = evaluate(String(v))
      out.uses.push({ step, with: w })
      continue
    }
    assert.equal(step.shell, 'bash', `step ${step.name}: a composite step names its shell`)
    const outputFile = join(temp, `output-${i}`)
    const summaryFile = join(temp, `summary-${i}`)
    const script = join(temp, `step-${i}.sh`)
    writeFileSync(outputFile, '')
    writeFileSync(summaryFile, '')
    writeFileSync(script, step.run ?? '')
    const stepEnv: Record<string, string> = {}
    for (const [k, v] of Object.entries(step.env ?? {})) stepEnv[k] = evaluate(String(v))
    const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd: step['working-directory'] ? evaluate(step['working-directory']) : workspace,
      encoding: 'utf8',
      env: {
        PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}`,
        HOME: process.env.HOME,
        GITHUB_ACTIONS: 'true',
        CI: 'true',
        GITHUB_WORKSPACE: workspace,
        GITHUB_ACTION_PATH: REPO,
        RUNNER_TEMP: temp,
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summaryFile,
        ...env,
        ...stepEnv,
      },
    })
    out.ran.push({ step, code: r.status, stdout: r.stdout, stderr: r.stderr })
    if (step.id !== undefined) steps[step.id] = parseOutputs(readFileSync(outputFile, 'utf8'))
    out.summary += readFileSync(summaryFile, 'utf8')
    if (r.status !== 0) out.ok = false
  }
  for (const [k, v] of Object.entries(ACTION.outputs)) out.outputs[k] = evaluate(v.value)
  return out
}

/** GITHUB_OUTPUT's two forms: `name=value` and `name<<DELIM` … `DELIM`. */
function parseOutputs(text: string): Record<string, string> {
  const o: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as string
    const heredoc = /^([^=<]+)<<(.+)$/.exec(l)
    if (heredoc) {
      const end = lines.indexOf(heredoc[2] as string, i + 1)
      o[heredoc[1] as string] = lines.slice(i + 1, end).join('\n')
      i = end
    } else if (l.includes('=')) {
      o[l.slice(0, l.indexOf('='))] = l.slice(l.indexOf('=') + 1)
    }
  }
  return o
}

const CLI = { ONGRID_SKILL_CLI: BIN }
const stepOut = (o: Outcome, id: string) => o.ran.find((r) => r.step.id === id)

function workspace(): string {
  const ws = join(T.root, `ws-${++n}`)
  makeTree(ws, {
    ...goodPack(),
    ...packWith('skills/bad', {
      name: 'Bad-Name',
      description: 'A pack whose name the manager refuses.',
      class: 'safe',
      timeout_seconds: 10,
      schema: { type: 'object', properties: {}, additionalProperties: false },
    }),
  })
  return ws
}

describe('action.yml, run as a runner runs it', () => {
  test('is a composite action with the inputs and outputs README documents', () => {
    assert.equal(ACTION.runs.using, 'composite')
    assert.deepEqual(Object.keys(ACTION.inputs).sort(), [
      'args',
      'baseline',
      'command',
      'config',
      'fail-severity',
      'format',
      'node-version',
      'path',
      'sarif',
      'trace',
      'version',
      'working-directory',
    ])
    assert.deepEqual(Object.keys(ACTION.outputs).sort(), ['baselined', 'errors', 'sarif-file', 'warnings'])
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8')
    for (const k of [...Object.keys(ACTION.inputs), ...Object.keys(ACTION.outputs)]) {
      assert.ok(readme.includes(`\`${k}\``), `README does not name ${k}`)
    }
  })

  test('lint: annotations on the diff, the counts as outputs, the findings in the job summary; the step fails', () => {
    const o = runAction(workspace(), { command: 'lint', path: 'skills' }, CLI)
    assert.equal(o.ok, false)
    const check = stepOut(o, 'check')!
    assert.equal(check.code, 1, check.stderr)
    assert.match(
      check.stdout,
      /^::error file=skills\/bad\/skill\.json,line=1,col=\d+,title=manager\/build::name "Bad-Name" must be lower_snake/m,
    )
    assert.equal(o.outputs.errors, '1')
    assert.equal(o.outputs.warnings, '0')
    assert.equal(o.outputs['sarif-file'], '')
    assert.match(o.summary, /^### ongrid-skill lint: 1 error, 0 warnings(, \d+ info)? in 2 files$/m)
    assert.match(
      o.summary,
      /^\| error \| skills\/bad\/skill\.json:1 \| manager\/build \| name "Bad-Name" must be/m,
    )
    // The upload step is after the failed one, and still runs: only with sarif.
    assert.deepEqual(o.skipped, [])
  })

  test('validate on a clean pack: the step passes, 0 and 0', () => {
    const o = runAction(workspace(), { command: 'validate', path: 'skills/good' }, CLI)
    assert.equal(o.ok, true, `${o.ran.map((r) => r.stdout + r.stderr).join('\n')}\n${o.summary}`)
    assert.equal(o.outputs.errors, '0')
    assert.equal(o.outputs.warnings, '0')
    assert.match(o.summary, /^### ongrid-skill validate: 0 errors, 0 warnings in 1 file$/m)
  })

  test('sarif: written to the runner temp dir, handed to upload-sarif', () => {
    const o = runAction(workspace(), { command: 'lint', path: 'skills', sarif: 'true' }, CLI)
    const file = o.outputs['sarif-file'] as string
    assert.ok(file.endsWith('ongrid-skill-lint.sarif'), file)
    const sarif = JSON.parse(readFileSync(file, 'utf8'))
    assert.equal(sarif.version, '2.1.0')
    assert.ok(sarif.runs[0].results.some((r: { ruleId: string }) => r.ruleId === 'manager/build'))
    const upload = o.uses.find((u) => u.step.uses?.startsWith('github/codeql-action/upload-sarif@'))
    assert.ok(upload, 'no upload-sarif step')
    assert.equal(upload.with.sarif_file, file)
    assert.match(upload.step.if ?? '', /always\(\)/)
  })

  test('test: failed cases annotated on their case file, counted as errors', () => {
    const ws = workspace()
    makeTree(ws, {
      'skills/good/tests/cases.json': JSON.stringify([
        { name: 'says ok', args: {}, expect: { result: { ok: true } } },
        { name: 'says no', args: {}, expect: { result: { ok: false } } },
      ]),
    })
    const o = runAction(ws, { command: 'test', path: 'skills/good' }, CLI)
    assert.equal(o.ok, false)
    assert.equal(o.outputs.errors, '1')
    assert.match(
      stepOut(o, 'report')!.stdout,
      /^::error file=skills\/good\/tests\/cases\.json,title=good%3A says no::/m,
    )
    assert.match(o.summary, /^### ongrid-skill test: 1 passed, 1 failed$/m)
    assert.match(o.summary, /^\| good \| says no \| skills\/good\/tests\/cases\.json \| /m)
  })

  test('test with trace: the effects of each case in the summary', (t) => {
    const missing = straceMissing()
    if (missing !== null) return t.skip(missing)
    const ws = workspace()
    makeTree(ws, {
      'skills/good/tests/cases.json': JSON.stringify({ name: 'says ok', args: {}, expect: { ok: true } }),
    })
    const plain = runAction(ws, { command: 'test', path: 'skills/good' }, CLI)
    assert.doesNotMatch(plain.summary, /Effects on the host/)
    const o = runAction(ws, { command: 'test', path: 'skills/good', trace: 'true' }, CLI)
    assert.equal(o.ok, true, o.ran.map((r) => r.stdout + r.stderr).join('\n'))
    assert.match(o.summary, /^#### Effects on the host$/m)
    assert.match(o.summary, /^\| good \| says ok \| exec \| cat \| execve \|$/m)
  })

  test('lint with a baseline: the outputs are the CLI’s counts, baselined findings apart and not listed', () => {
    const ws = workspace()
    makeTree(ws, {
      '.git/HEAD': 'ref: refs/heads/main\n',
      ...packWith('skills/meh', { name: 'meh', description: 'short' }),
    })
    const cli = (...args: string[]) => spawnSync(BIN, args, { cwd: ws, encoding: 'utf8' })
    // The baseline takes today's findings; then a new pack brings new ones.
    cli('lint', 'skills', '--update-baseline')
    assert.ok(existsSync(join(ws, '.ongrid-skill-baseline.json')))
    makeTree(ws, packWith('skills/worse', { name: 'Worse', description: 'short' }))
    const direct = JSON.parse(cli('lint', 'skills', '--json').stdout)
    assert.ok(direct.summary.baselined > 0)
    const o = runAction(ws, { command: 'lint', path: 'skills' }, CLI)
    assert.equal(o.ok, false)
    assert.deepEqual(
      [o.outputs.errors, o.outputs.warnings, o.outputs.baselined],
      [String(direct.summary.errors), String(direct.summary.warnings), String(direct.summary.baselined)],
    )
    const infos = direct.summary.infos ? `, ${direct.summary.infos} info` : ''
    assert.match(
      o.summary,
      new RegExp(
        `^### ongrid-skill lint: ${direct.summary.errors} errors?, ${direct.summary.warnings} warnings?${infos}, ${direct.summary.baselined} baselined in 4 files$`,
        'm',
      ),
    )
    // The rows are the findings the baseline does not accept: none of meh's, all of worse's.
    const rows = o.summary.split('\n').filter((l) => /^\| (error|warn|info) \|/.test(l))
    const reported = direct.files.flatMap((f: { path: string; findings: { baselined?: boolean }[] }) =>
      f.findings.filter((x) => x.baselined !== true).map(() => f.path),
    )
    assert.deepEqual(rows.map((l) => /^\| \w+ \| ([^:]+):/.exec(l)?.[1]).sort(), reported.sort())
    assert.ok(!rows.some((l) => l.includes('skills/meh/')), rows.join('\n'))
    assert.ok(
      rows.some((l) => l.includes('skills/worse/')),
      rows.join('\n'),
    )
  })

  test('test: each case runs once; the log in the chosen format, the step’s exit code the run’s', () => {
    const ws = workspace()
    const counter = join(ws, 'runs.txt')
    makeTree(ws, {
      'skills/good/run.sh': {
        exec: `#!/bin/sh\ncat >/dev/null\necho run >> '${counter}'\necho '{"ok":true}'\n`,
      },
      'skills/good/tests/cases.json': JSON.stringify([
        { name: 'says ok', args: {}, expect: { result: { ok: true } } },
        { name: 'says no', args: {}, expect: { result: { ok: false } } },
      ]),
    })
    const o = runAction(ws, { command: 'test', path: 'skills/good', format: 'tap' }, CLI)
    assert.equal(readFileSync(counter, 'utf8'), 'run\nrun\n')
    assert.match(stepOut(o, 'report')!.stdout, /^TAP version 13$/m)
    assert.equal(stepOut(o, 'report')!.code, 0)
    assert.equal(stepOut(o, 'check')!.code, 1)
    assert.equal(stepOut(o, 'check')!.stdout, '')
    assert.equal(o.outputs.errors, '1')
    assert.match(o.summary, /^### ongrid-skill test: 1 passed, 1 failed$/m)
  })

  test('marketplace-check on a pack dir', () => {
    const ws = join(T.root, `ws-${++n}`)
    cpSync(join(REPO, 'examples/marketplace/hello-pack'), join(ws, 'hello-pack'), { recursive: true })
    const o = runAction(ws, { command: 'marketplace-check', path: 'hello-pack' }, CLI)
    assert.equal(o.ok, true, o.ran.map((r) => r.stdout + r.stderr).join('\n'))
    assert.match(o.summary, /^### ongrid-skill marketplace check: 0 errors/m)
  })

  test('the inputs reach the CLI as flags: fail-severity, baseline, format', () => {
    const argv = join(T.root, 'argv')
    const fake = join(T.root, 'fake-cli')
    writeFileSync(fake, `#!/bin/sh\nprintf '%s\\n' "$*" >>${argv}\necho '{"files":[]}'\n`, { mode: 0o755 })
    const o = runAction(
      workspace(),
      {
        command: 'lint',
        path: 'skills/good skills/bad',
        'fail-severity': 'warn',
        baseline: '.ongrid-baseline.json',
      },
      { ONGRID_SKILL_CLI: fake },
    )
    assert.equal(o.ok, true)
    assert.deepEqual(readFileSync(argv, 'utf8').trim().split('\n'), [
      'lint skills/good skills/bad --format json --fail-severity warn --baseline .ongrid-baseline.json',
      'lint skills/good skills/bad --format github --fail-severity warn --baseline .ongrid-baseline.json',
    ])
  })

  test('args, config and working-directory; path and args one a line keep their spaces', () => {
    const ws = workspace()
    mkdirSync(join(ws, 'sub', 'my packs'), { recursive: true })
    const argv = join(T.root, 'argv-lines')
    const fake = join(T.root, 'fake-cli-lines')
    // Each argument on a line of its own, and the dir it ran in.
    writeFileSync(
      fake,
      `#!/bin/sh\npwd >>${argv}\nfor a in "$@"; do printf '[%s]' "$a" >>${argv}; done\necho >>${argv}\necho '{"files":[]}'\n`,
      { mode: 0o755 },
    )
    const o = runAction(
      ws,
      {
        command: 'validate',
        path: 'my packs\nskills/good\n',
        'working-directory': 'sub',
        config: 'ci.ongrid-skill.yaml',
        args: '--root=.\n--no-default-ignore',
      },
      { ONGRID_SKILL_CLI: fake },
    )
    assert.equal(o.ok, true, o.ran.map((r) => r.stdout + r.stderr).join('\n'))
    const dir = join(ws, 'sub')
    const line =
      '[validate][my packs][skills/good][--format][FORMAT][--config][ci.ongrid-skill.yaml][--root=.][--no-default-ignore]'
    assert.deepEqual(readFileSync(argv, 'utf8').trim().split('\n'), [
      dir,
      line.replace('FORMAT', 'json'),
      dir,
      line.replace('FORMAT', 'github'),
    ])
  })

  test('config is refused for test; a working-directory that is not a dir, in one line', () => {
    let o = runAction(workspace(), { command: 'test', config: 'x.yaml' }, CLI)
    assert.equal(stepOut(o, 'report')!.code, 2)
    assert.equal(
      stepOut(o, 'report')!.stdout,
      '::error title=ongrid-skill::config is for the validate and lint commands\n',
    )
    o = runAction(workspace(), { command: 'lint', 'working-directory': 'nope' }, CLI)
    assert.equal(stepOut(o, 'report')!.code, 2)
    assert.equal(
      stepOut(o, 'report')!.stdout,
      '::error title=ongrid-skill::working-directory nope is not a directory in the workspace\n',
    )
  })

  test('a built tree (a release tag’s) is run as it is: nothing is installed', () => {
    const o = runAction(
      workspace(),
      { command: 'validate', path: 'skills/good' },
      { npm_config_registry: 'http://127.0.0.1:9/' },
    )
    assert.equal(o.ok, true, o.ran.map((r) => r.stdout + r.stderr).join('\n'))
    const install = stepOut(o, 'install')!
    assert.equal(install.stdout + install.stderr, '')
    assert.match(o.summary, /^### ongrid-skill validate: 0 errors, 0 warnings in 1 file$/m)
  })

  test('an unknown command: one annotation, the step fails with 2', () => {
    const o = runAction(workspace(), { command: 'lnit' }, CLI)
    assert.equal(o.ok, false)
    const report = stepOut(o, 'report')!
    assert.equal(report.code, 2)
    assert.equal(
      report.stdout,
      '::error title=ongrid-skill::command must be one of validate, lint, test, marketplace-check, not "lnit"\n',
    )
    assert.ok(o.skipped.some((s) => s.id === 'check'))
  })
})
