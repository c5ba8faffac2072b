/**
 * The command examples of README.md and docs/*.md, as a reader copies them: each `ongrid-skill …`
 * line of a code block names a command that exists and only flags that command takes (its
 * `help --json`); a transcript (`$ ongrid-skill …` then what it prints) is run and must print
 * that. And README's claims about every command's `--json` hold for each command.
 */
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, test } from 'node:test'
import { REPO, runCliSync } from './helpers/cli.js'

interface HelpFlag {
  name: string
  char: string | null
  allow_no: boolean
}

const TOPICS = new Set(['audit', 'marketplace', 'remote'])
const DOCS = ['README.md', ...readdirSync(join(REPO, 'docs')).map((f) => join('docs', f))].filter((f) =>
  f.endsWith('.md'),
)

const helpCache = new Map<string, { flags: HelpFlag[] } | null>()
function helpOf(id: string): { flags: HelpFlag[] } | null {
  if (!helpCache.has(id)) {
    const r = runCliSync(['help', ...id.split(' '), '--json'])
    helpCache.set(id, r.code === 0 ? JSON.parse(r.stdout) : null)
  }
  return helpCache.get(id) ?? null
}

const COMMANDS: string[] = JSON.parse(runCliSync(['help', '--json']).stdout).commands.map(
  (c: { id: string }) => c.id,
)

/** Shell words of a command line, up to a comment, pipe, redirection, `&&`, `;` or `)`. */
function words(line: string): string[] {
  const out: string[] = []
  let cur: string | null = null
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] as string
    if (ch === "'" || ch === '"') {
      const end = line.indexOf(ch, i + 1)
      cur = (cur ?? '') + line.slice(i + 1, end < 0 ? line.length : end)
      i = end < 0 ? line.length : end
    } else if (/\s/.test(ch)) {
      if (cur !== null) out.push(cur)
      cur = null
    } else if ('|<>;)'.includes(ch) || (ch === '#' && cur === null) || line.startsWith('&&', i)) {
      break
    } else {
      cur = (cur ?? '') + ch
    }
  }
  if (cur !== null) out.push(cur)
  return out
}

interface Example {
  where: string
  argv: string[]
  /** A transcript's expected output lines. */
  prints?: string[]
}

function examples(): Example[] {
  const out: Example[] = []
  for (const file of DOCS) {
    const lines = readFileSync(join(REPO, file), 'utf8').split('\n')
    let inBlock = false
    for (let n = 0; n < lines.length; n++) {
      const raw = lines[n] as string
      if (raw.trimStart().startsWith('```')) {
        inBlock = !inBlock
        continue
      }
      if (!inBlock) continue
      let line = raw
      while (line.endsWith('\\') && n + 1 < lines.length) line = `${line.slice(0, -1)} ${lines[++n]}`
      const m = /(?:^\s*(?:\$ |- run: |run: )?(?:npx )?|\$\()ongrid-skill (\S.*)$/.exec(line)
      if (m === null) continue
      const ex: Example = { where: `${file}:${n + 1}`, argv: words(m[1] as string) }
      if (/^\s*\$ /.test(line)) {
        ex.prints = []
        for (let k = n + 1; k < lines.length && !/^\s*(\$ |```)/.test(lines[k] as string); k++)
          ex.prints.push(lines[k] as string)
      }
      out.push(ex)
    }
  }
  return out
}

const EXAMPLES = examples()

describe('command examples in README.md and docs/', () => {
  test('there are examples to check', () => {
    assert.ok(EXAMPLES.length > 50, String(EXAMPLES.length))
  })

  test('each names a command that exists and only flags it takes', () => {
    const wrong: string[] = []
    for (const ex of EXAMPLES) {
      if (ex.prints !== undefined) continue
      const [first, second] = ex.argv
      const id = first !== undefined && TOPICS.has(first) ? `${first} ${second}` : (first ?? '')
      if (!COMMANDS.includes(id)) {
        wrong.push(`${ex.where}: no command "${id}"`)
        continue
      }
      const help = helpOf(id)
      if (help === null) {
        wrong.push(`${ex.where}: help ${id} --json failed`)
        continue
      }
      for (const w of ex.argv.slice(id.split(' ').length)) {
        if (w === '--') break
        if (w.startsWith('--')) {
          const name = w.slice(2).split('=')[0] as string
          const ok =
            name === 'help' ||
            help.flags.some((f) => f.name === name || (f.allow_no && `no-${f.name}` === name))
          if (!ok) wrong.push(`${ex.where}: ${id} takes no --${name}`)
        } else if (/^-[a-zA-Z]$/.test(w)) {
          if (!help.flags.some((f) => f.char === w.slice(1))) wrong.push(`${ex.where}: ${id} takes no ${w}`)
        }
      }
    }
    assert.deepEqual(wrong, [])
  })

  test('each transcript prints what it shows', () => {
    const transcripts = EXAMPLES.filter((ex) => ex.prints !== undefined)
    assert.ok(transcripts.length > 0)
    for (const ex of transcripts) {
      const r = runCliSync(ex.argv, { env: { NO_COLOR: '1' } })
      assert.deepEqual(
        `${r.stdout}${r.stderr}`.split('\n').filter((l) => l !== ''),
        ex.prints?.filter((l) => l !== ''),
        ex.where,
      )
    }
  })
})

describe('README on --json', () => {
  test('every command takes it but those README names as the exception', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8')
    const without = COMMANDS.filter((id) => !(helpOf(id)?.flags ?? []).some((f) => f.name === 'json'))
    const claims = [...readme.matchAll(/Every command (but [^;.]*?)?takes `--json`/g)]
    assert.ok(claims.length > 0, 'README says nothing of --json for every command')
    for (const c of claims) {
      const but = c[1] ?? ''
      for (const id of without)
        assert.ok(but.includes(`\`${id}\``), `README: "${c[0]}" but ${id} takes no --json`)
    }
  })
})

describe('README on $schema', () => {
  test('the skill.json example’s path reaches the package’s schema from the file it names', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8')
    const from = /so from `([^`]+\/skill\.json)`/.exec(readme)?.[1]
    const path = /\{ "\$schema": "([^"]+)", "name"/.exec(readme)?.[1]
    assert.ok(from && path, 'README has no $schema example for a skill.json')
    assert.equal(
      resolve('/repo', from, '..', path),
      '/repo/node_modules/ongrid-skill/schemas/skill.schema.json',
    )
  })
})
