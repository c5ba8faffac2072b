// biome-ignore-all lint/suspicious/noTemplateCurlyInString: source text with template literals, as data
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url))

function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(join(SRC, dir), { withFileTypes: true })) {
    const p = dir === '' ? e.name : `${dir}/${e.name}`
    if (e.isDirectory()) sources(p, out)
    else if (/\.tsx?$/.test(e.name)) out.push(p)
  }
  return out
}

/** The text literals of a source file (template holes as `${}`), module specifiers left out. */
function literals(name: string, text: string): string[] {
  const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true)
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) return
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.push(node.text)
    else if (ts.isTemplateExpression(node)) {
      found.push(node.head.text + node.templateSpans.map((s) => `\${}${s.literal.text}`).join(''))
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return found
}

/**
 * A text worth one source: long enough to be a message (holes aside), and words, not an id.
 * core/go is left out as the source: Go repeats its own texts, and so does its mirror.
 */
function isMessage(t: string): boolean {
  return t.replace(/\$\{\}/g, '').length >= 24 && /\s/.test(t)
}

/** Texts written in core (outside core/go) that are written again in another file of core, cli or ui. */
function duplicated(files: Map<string, string>): Map<string, string[]> {
  const where = new Map<string, Set<string>>()
  for (const [name, text] of files) {
    for (const t of literals(name, text)) {
      if (!isMessage(t)) continue
      if (!where.has(t)) where.set(t, new Set())
      where.get(t)!.add(name)
    }
  }
  const dups = new Map<string, string[]>()
  for (const [t, names] of where) {
    const list = [...names].sort()
    if (list.length > 1 && list.some((n) => n.startsWith('core/') && !n.startsWith('core/go/')))
      dups.set(t, list)
  }
  return dups
}

describe('each manager text and rule message is written once', () => {
  test('no text of core is written twice in src/', () => {
    const files = new Map<string, string>()
    for (const f of sources('')) {
      if (/^(core|cli|ui)\//.test(f)) files.set(f, readFileSync(join(SRC, f), 'utf8'))
    }
    assert.deepEqual(Object.fromEntries(duplicated(files)), {})
  })

  test('the check sees a copy in another file, through templates, and not in imports or comments', () => {
    const files = new Map([
      [
        'core/a.ts',
        "import { x } from './some/long/module/path/name.js'\nexport const m = (k: string) => `subprocess skill ${k}: timed out`\n",
      ],
      ['cli/b.ts', '// subprocess skill x: timed out\nconst t = `subprocess skill ${key}: timed out`\n'],
      ['ui/c.ts', "import { x } from './some/long/module/path/name.js'\nconst short = 'a b'\n"],
    ])
    assert.deepEqual(Object.fromEntries(duplicated(files)), {
      'subprocess skill ${}: timed out': ['cli/b.ts', 'core/a.ts'],
    })
    files.delete('cli/b.ts')
    assert.deepEqual(Object.fromEntries(duplicated(files)), {})
  })
})
