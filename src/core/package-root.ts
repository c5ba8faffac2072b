import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The package root: the first dir upward from this module that holds package.json. The same
 * from dist/, build/ (tests) and dist/bundle/ (the cold-start bundle), wherever the module was
 * compiled to; shipped data (templates/, package.json) is read relative to it.
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir)
    if (up === dir) throw new Error('ongrid-skill: package.json not found above its own modules')
    dir = up
  }
  return dir
}

/** This package's version, from its package.json. */
export function packageVersion(): string {
  return JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')).version as string
}
