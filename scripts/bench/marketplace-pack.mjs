// A signed marketplace pack of 1,000 files for the marketplace figures (made once, kept):
// a Claude plugin with 250 skills, each a SKILL.md, a README.md, a data.json and an
// executable run.sh (so 751 files are signed and 250 are not).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export function marketplacePack(dir, bin) {
  const root = join(dir, 'mp-1k')
  if (existsSync(join(root, 'signature.json'))) return root
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(join(root, '.claude-plugin'), { recursive: true })
  writeFileSync(join(root, '.claude-plugin', 'plugin.json'), '{"id":"mp-1k","version":"1.0.0"}')
  for (let i = 0; i < 250; i++) {
    const d = join(root, 'skills', `s${i}`)
    mkdirSync(d, { recursive: true })
    writeFileSync(
      join(d, 'SKILL.md'),
      `---\nname: s${i}\ndescription: Skill ${i} does a thing.\n---\nBody ${i}\n`,
    )
    writeFileSync(join(d, 'README.md'), `# s${i}\n`)
    writeFileSync(join(d, 'data.json'), JSON.stringify({ i }))
    writeFileSync(join(d, 'run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 })
  }
  const key = join(dir, 'key.pem')
  for (const argv of [
    ['marketplace', 'keygen', '--out', key],
    ['marketplace', 'sign', root, '--key', key],
  ]) {
    const r = spawnSync(process.execPath, [bin, ...argv], { encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`bench: ${argv.join(' ')}: ${r.stderr}`)
  }
  return root
}
