import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { cli } from '../core/lint/cli.js'
import { tempRoot } from '../helpers/tree.js'

const T = tempRoot('ongrid-completion-')
after(T.cleanup)

const hasZsh = spawnSync('zsh', ['-fc', 'true']).status === 0

describe('ongrid-skill completion', () => {
  test('bash: commands, topics, flags, flag values and templates complete', () => {
    const r = cli(['completion', 'bash'])
    assert.equal(r.code, 0, r.stderr)
    const script = join(T.root, 'c.bash')
    writeFileSync(script, r.stdout)
    // Calls the completion function as bash does, with COMP_WORDS and COMP_CWORD set.
    const harness = `source ${JSON.stringify(script)}
t() { COMP_WORDS=("$@"); COMP_CWORD=$((\${#COMP_WORDS[@]}-1)); COMPREPLY=(); _ongrid_skill; echo "\${COMPREPLY[*]}"; }
t ongrid-skill va
t ongrid-skill ''
t ongrid-skill audit t
t ongrid-skill audit tail --st
t ongrid-skill audit tail --status e
t ongrid-skill lint --format s
t ongrid-skill lint --fail
t ongrid-skill init -t p
t ongrid-skill help l
t ongrid-skill run --ro
complete -p ongrid-skill
`
    const b = spawnSync('bash', ['--norc', '-c', harness], { encoding: 'utf8' })
    assert.equal(b.status, 0, b.stderr)
    assert.deepEqual(b.stdout.trimEnd().split('\n'), [
      'validate',
      'audit completion help init lint load-dirs marketplace mcp run test validate',
      'tail',
      '--status',
      'error',
      'stylish sarif',
      '--fail-severity',
      'python',
      'lint load-dirs',
      '--root --role',
      'complete -o bashdefault -o filenames -F _ongrid_skill ongrid-skill',
    ])
  })

  test('zsh: a #compdef function that compinit registers', {
    skip: !hasZsh && 'zsh is not installed',
  }, () => {
    const r = cli(['completion', 'zsh'])
    assert.equal(r.code, 0, r.stderr)
    assert.match(r.stdout, /^#compdef ongrid-skill\n/)
    assert.match(r.stdout, /'--status\[[^\]]*\]:status:\(ok error timeout pending\)'/)
    assert.match(r.stdout, /\{-t,--template\}'\[[^\]]*\]:template:\(bash go node python\)'/)
    const script = join(T.root, '_ongrid-skill')
    writeFileSync(script, r.stdout)
    const n = spawnSync('zsh', ['-n', script], { encoding: 'utf8' })
    assert.equal(n.status, 0, n.stderr)
    const z = spawnSync(
      'zsh',
      [
        '-fc',
        `autoload -Uz compinit && compinit -u -d ${JSON.stringify(join(T.root, 'zcd'))}; source ${JSON.stringify(script)}; print -r -- $_comps[ongrid-skill]`,
      ],
      { encoding: 'utf8' },
    )
    assert.equal(z.status, 0, z.stderr)
    assert.equal(z.stdout, '_ongrid_skill\n')
  })

  test('--json: the script in a document', () => {
    const r = cli(['completion', 'bash', '--json'])
    assert.equal(r.code, 0, r.stderr)
    assert.deepEqual(JSON.parse(r.stdout), { shell: 'bash', script: cli(['completion', 'bash']).stdout })
  })

  test('an unknown shell is a usage error with the choices', () => {
    const r = cli(['completion', 'fish'])
    assert.equal(r.code, 2)
    assert.equal(
      r.stderr,
      'ongrid-skill: "fish" is not one of bash, zsh\nhint: see `ongrid-skill completion --help`\n',
    )
  })
})
