// The action's install step: the `cli` output, the ongrid-skill to run. The action's own tree when
// it is a release's (the package as npm installs it: nothing to install); else, or with `version`,
// ongrid-skill from the npm registry into the runner's temp dir.
// ONGRID_SKILL_CLI, when set, names a CLI to use instead (a build of your own).
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fail, setOutputs } from './common.mjs'

const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 13)) {
  fail(`ongrid-skill needs Node 22.13 or later; this is ${process.version} (set node-version)`)
}
const own = process.env.ONGRID_SKILL_CLI ?? ''
const here = process.env.ONGRID_ACTION_PATH ?? join(import.meta.dirname, '..')
const wanted = (process.env.ONGRID_ACTION_VERSION ?? '').trim()
// A release's tag holds the package as npm installs it (scripts/release.mjs): run it as it is.
const built = ['dist/bundle/fast.js', 'node_modules/@oclif/core/package.json'].every((f) =>
  existsSync(join(here, f)),
)
if (own !== '') {
  setOutputs({ cli: own })
} else if (wanted === '' && built) {
  setOutputs({ cli: join(here, 'bin', 'run.js') })
} else {
  const version =
    wanted !== '' ? wanted : JSON.parse(readFileSync(join(here, 'package.json'), 'utf8')).version
  const prefix = join(process.env.ONGRID_ACTION_TEMP ?? process.env.RUNNER_TEMP ?? '/tmp', 'ongrid-skill')
  const r = spawnSync(
    'npm',
    ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', `ongrid-skill@${version}`],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  )
  if (r.status !== 0) fail(`npm could not install ongrid-skill@${version}`)
  setOutputs({ cli: join(prefix, 'bin', 'ongrid-skill') })
}
