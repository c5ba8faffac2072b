import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type Version from '../../commands/version.js'
import { packageRoot } from '../../core/package-root.js'
import { envelope } from '../../ui/envelope.js'
import { EXIT, type InputOf, printJson } from '../errors.js'

/** What `version` says: this CLI's version, Node's, and the manager release it reproduces. */
export function versionInfo() {
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8'))
  return {
    version: pkg.version as string,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    manager_release: pkg.ongridManagerRelease as string,
  }
}

/**
 * `version [--json]`: the line `--version` prints (bin/run.js answers those two itself, without
 * loading anything), or its document (schemas/output/version.schema.json).
 */
export async function versionAction({ flags }: InputOf<typeof Version>): Promise<number> {
  const v = versionInfo()
  if (flags.json === true) printJson(envelope('version', EXIT.ok, v))
  else
    process.stdout.write(
      `ongrid-skill/${v.version} ${v.platform} node-${v.node} (ongrid manager ${v.manager_release})\n`,
    )
  return EXIT.ok
}
