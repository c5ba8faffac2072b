import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, describe, test } from 'node:test'
import { cli } from '../helpers/lint-fixtures.js'
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
      'audit completion eval help init lint load-dirs lsp marketplace mcp remote run test validate version',
      'tail',
      '--status',
      'error',
      'stylish sarif',
      '--fail-severity',
      'python',
      'lint load-dirs lsp',
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

  /**
   * What zsh offers for LINE + Tab: an interactive zsh on a pseudo-terminal (zsh/zpty), compinit
   * loaded, the script installed as README says (ROUTE: a file in $fpath, or sourced as
   * ~/.zshrc's eval), every match given to compadd written to a file, one line per call.
   */
  function zshCompletes(dir: string, route: 'fpath' | 'source', line: string): string[] {
    const out = join(dir, `out-${route}`)
    writeFileSync(out, '')
    const hook = `bindkey '^I' complete-word
zstyle ':completion:*' insert-tab false
compadd () {
  if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd "$@"; return; fi
  local -a hits
  builtin compadd -A hits "$@"
  (( $#hits )) && print -r -- "\${(j: :)hits}" >> ${JSON.stringify(out)}
  builtin compadd "$@"
}
_zc_done () { print -r -- '--done--' >> ${JSON.stringify(out)} }
comppostfuncs=(_zc_done)
`
    writeFileSync(join(dir, 'hook.zsh'), hook)
    const install =
      route === 'fpath'
        ? `fpath=(${JSON.stringify(dir)} $fpath);`
        : `source ${JSON.stringify(join(dir, '_ongrid-skill'))};`
    const driver = `zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z ${JSON.stringify(
      `${route === 'fpath' ? install : ''} autoload -Uz compinit; compinit -u -d ${join(dir, 'zcd')}; source ${join(dir, 'hook.zsh')}; ${route === 'source' ? install : ''} echo RE''ADY`,
    )}
zpty -r z l '*READY*'
zpty -w -n z ${JSON.stringify(line)}$'\t'
for i in {1..200}; do grep -q -- --done-- ${JSON.stringify(out)} && break; sleep 0.05; done
zpty -d z
`
    const z = spawnSync('zsh', ['-fc', driver], { encoding: 'utf8', timeout: 30_000, cwd: dir })
    assert.equal(z.status, 0, z.stderr)
    const lines = readFileSync(out, 'utf8').split('\n')
    assert.ok(lines.includes('--done--'), `${line}: no completion ran (${route})`)
    return lines.filter((l) => l !== '' && l !== '--done--')
  }

  test('zsh, in the shell: commands, topics, flags, flag values, templates and files complete', {
    skip: !hasZsh && 'zsh is not installed',
  }, () => {
    const dir = join(T.root, 'zsh')
    mkdirSync(join(dir, 'packs/disk_usage'), { recursive: true })
    writeFileSync(join(dir, '_ongrid-skill'), cli(['completion', 'zsh']).stdout)
    const cases: [string, string[]][] = [
      ['ongrid-skill va', ['validate']],
      ['ongrid-skill audit t', ['tail']],
      ['ongrid-skill marketplace ve', ['verify']],
      ['ongrid-skill lint --for', ['--format']],
      ['ongrid-skill lint --format s', ['stylish sarif']],
      ['ongrid-skill audit tail --st', ['--status']],
      ['ongrid-skill audit tail --status e', ['error']],
      ['ongrid-skill marketplace pack --format ', ['tar.gz zip']],
      ['ongrid-skill init -t p', ['python']],
      ['ongrid-skill help l', ['lint load-dirs lsp']],
      ['ongrid-skill validate packs/d', ['disk_usage']],
    ]
    for (const route of ['fpath', 'source'] as const) {
      for (const [line, offered] of cases) {
        assert.deepEqual(zshCompletes(dir, route, line), offered, `${route}: ${line}`)
      }
    }
  })

  test('--json: the script in a document', () => {
    const r = cli(['completion', 'bash', '--json'])
    assert.equal(r.code, 0, r.stderr)
    assert.deepEqual(JSON.parse(r.stdout), {
      ok: true,
      exit_code: 0,
      command: 'completion',
      schema_version: 1,
      error: null,
      shell: 'bash',
      script: cli(['completion', 'bash']).stdout,
    })
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
