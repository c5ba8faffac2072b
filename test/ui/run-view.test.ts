import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { ExecuteResult } from '../../src/core/executor/executor.js'
import type { SubprocessSkill } from '../../src/core/loader/build.js'
import { fakeTerminal as terminal } from '../helpers/terminal.js'

// ink decides once, when it is loaded, whether it runs under CI (and then draws no frame until it
// unmounts); the view is only chosen outside CI, so it is tested as it runs there. chalk takes its
// level when loaded: one it can draw, for the case where ui/color.ts says colour.
delete process.env.CI
delete process.env.CONTINUOUS_INTEGRATION
process.env.FORCE_COLOR = '1'
delete process.env.NO_COLOR
const { InkRunView } = await import('../../src/ui/run-view.js')

const skill = { key: 'disk_usage' } as SubprocessSkill
const failed = {
  ok: false,
  exitCode: 1,
  timedOut: false,
  durationMs: 12,
  stdout: Buffer.alloc(0),
  stderr: Buffer.alloc(0),
  error: 'x',
  params: '{}',
} as ExecuteResult

async function frames(env: NodeJS.ProcessEnv): Promise<string> {
  const out = terminal()
  const view = new InkRunView(skill, out as unknown as NodeJS.WriteStream, env)
  view.stderr(Buffer.from('checking /tmp\n'))
  await new Promise((r) => setTimeout(r, 60))
  await view.done(failed)
  return out.frames.join('')
}

const SGR = /\x1b\[[0-9;]*m/

describe("run's terminal view: colour as ui/color.ts decides", () => {
  test('NO_COLOR wins over FORCE_COLOR: no colour', async () => {
    const screen = await frames({ NO_COLOR: '1', FORCE_COLOR: '1' })
    assert.match(screen, /✘ disk_usage failed after 0\.0s \(exit 1\)/)
    assert.doesNotMatch(screen, SGR)
  })

  test('a terminal (TERM not dumb), nothing said: in colour', async () => {
    const screen = await frames({ TERM: 'xterm-256color' })
    assert.match(screen, /\x1b\[31m✘ disk_usage failed/) // red
  })
})
