/** README's list of apt packages is what CI installs for the full suite. */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..')

/** The packages of every `apt-get install` line of a script (options and redirections dropped). */
function aptPackages(script: string): string[] {
  const out: string[] = []
  for (const m of script.matchAll(/apt-get install ([^\n]*)/g)) {
    const words = m[1].replace(/>.*$/, '').split(/\s+/)
    for (let i = 0; i < words.length; i++) {
      const w = words[i]
      if (w === '-t') i++
      else if (w !== '' && !w.startsWith('-') && !w.startsWith('$')) out.push(w)
    }
  }
  return out
}

test('every apt package .ci/run and .ci/mariadb.sh install is named in README', () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8')
  const pkgs = ['.ci/run', '.ci/mariadb.sh'].flatMap((f) =>
    aptPackages(readFileSync(path.join(ROOT, f), 'utf8')),
  )
  assert.deepEqual([...new Set(pkgs)].sort(), [
    'bubblewrap',
    'golang-1.23-go',
    'golang-go',
    'golang-gopkg-yaml.v3-dev',
    'libxml2-utils',
    'mariadb-client',
    'mariadb-server',
    'neovim',
    'pre-commit',
    'shellcheck',
    'strace',
    'unzip',
    'zsh',
  ])
  for (const p of pkgs) assert.ok(readme.includes(p), `README does not name ${p}`)
})
