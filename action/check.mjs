// The action's check step: the command in the chosen format on the log (with github, annotations
// on the diff), and its exit code as the step's: 1 for findings at the fail severity or failed cases.
import { spawnSync } from 'node:child_process'
import { cliArgs, fail, inputs } from './common.mjs'

const i = inputs()
if (i.cli === '') fail('no ongrid-skill to run (the install step gave no cli output)')
// `test` has no github format: its failed cases were annotated by the report step.
const format =
  i.command === 'test' && !['spec', 'tap', 'junit', 'json'].includes(i.format) ? 'spec' : i.format
const r = spawnSync(i.cli, cliArgs(i, format), { stdio: ['ignore', 'inherit', 'inherit'] })
if (r.error) fail(`cannot start ${i.cli}: ${r.error.message}`)
process.exit(r.status ?? 1)
