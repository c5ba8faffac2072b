import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/**
 * A file tree for tests, described as path → content. A string is a file (mode 0644),
 * `{ exec }` an executable file, `{ link }` a symlink, `{ dir: true }` an empty dir.
 * Paths may be Buffers' latin1 form when a name must not be valid UTF-8.
 */
export type Node =
  | string
  | { exec: string }
  | { link: string }
  | { dir: true }
  | { file: string; mode: number }

export function makeTree(root: string, nodes: Record<string, Node>): void {
  for (const [rel, node] of Object.entries(nodes)) {
    const p = join(root, rel)
    mkdirSync(dirname(p), { recursive: true })
    if (typeof node === 'string') writeFileSync(p, node)
    else if ('exec' in node) {
      writeFileSync(p, node.exec)
      chmodSync(p, 0o755)
    } else if ('link' in node) symlinkSync(node.link, p)
    else if ('dir' in node) mkdirSync(p, { recursive: true })
    else {
      writeFileSync(p, node.file)
      chmodSync(p, node.mode)
    }
  }
}

/** A fresh temp dir with no symlinks in its path (so resolved and given paths agree). */
export function tempRoot(prefix = 'ongrid-skill-'): { root: string; cleanup: () => void } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) }
}

/** A valid manifest as JSON text, with fields overridden or removed (undefined). */
export function manifest(fields: Record<string, unknown> = {}): string {
  const base: Record<string, unknown> = { name: 'ok_skill', description: 'Does a thing.', entry: 'run.sh' }
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) delete base[k]
    else base[k] = v
  }
  return JSON.stringify(base)
}

export const ECHO = { exec: '#!/bin/sh\ncat\n' }

/**
 * A pack the manager loads, for the repository-level tests (action, pre-commit): safe, 10 s, no
 * args allowed; its entry reads stdin and says {"ok":true}.
 */
export function goodPack(dir = 'skills/good'): Record<string, Node> {
  return {
    [`${dir}/skill.json`]: manifest({
      name: 'good',
      description: 'Says ok to any args, for the tests.',
      entry: 'run.sh',
      class: 'safe',
      timeout_seconds: 10,
      schema: { type: 'object', properties: {}, additionalProperties: false },
    }),
    [`${dir}/run.sh`]: { exec: '#!/bin/sh\ncat >/dev/null\necho \'{"ok":true}\'\n' },
  }
}

/** A pack with these manifest fields (entry run.sh, which says {}): one the manager refuses by its name, say. */
export function packWith(dir: string, fields: Record<string, unknown>): Record<string, Node> {
  return {
    [`${dir}/skill.json`]: manifest({ entry: 'run.sh', ...fields }),
    [`${dir}/run.sh`]: { exec: '#!/bin/sh\necho {}\n' },
  }
}

/**
 * N packs p0 … pN-1 under dir whose entry is missing: each draws a validate error and lint
 * warnings, so that a report over a few hundred is larger than a pipe holds (64 KiB). Returns dir.
 */
export function entrylessPacks(dir: string, n: number): string {
  for (let i = 0; i < n; i++) {
    mkdirSync(join(dir, `p${i}`), { recursive: true })
    writeFileSync(
      join(dir, `p${i}`, 'skill.json'),
      JSON.stringify({ name: `p${i}`, description: 'd', entry: 'x' }),
    )
  }
  return dir
}
