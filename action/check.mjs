// The action's check step: the command in the chosen format on the log (with github, annotations
// on the diff), and its exit code as the step's: 1 for findings at the fail severity or failed cases.
// test ran once, in the report step (its log is there): its exit code is the step's.
import { spawnSync } from 'node:child_process'
import { cliArgs, fail, inputs, workingDir } from './common.mjs'

const i = inputs()
if (i.command === 'test') {
  const code = (process.env.ONGRID_ACTION_EXIT_CODE ?? '').trim()
  if (!/^\d+$/.test(code)) fail('the report step ran no test (no exit-code output)')
  process.exit(Number(code))
}
if (i.cli === '') fail('no ongrid-skill to run (the install step gave no cli output)')
const r = spawnSync(i.cli, cliArgs(i, i.format), {
  cwd: workingDir(i),
  stdio: ['ignore', 'inherit', 'inherit'],
})
if (r.error) fail(`cannot start ${i.cli}: ${r.error.message}`)
process.exit(r.status ?? 1)
