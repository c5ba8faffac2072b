import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { packageRoot } from '../../core/package-root.js'
import { SUPPORTED_MANAGER_VERSIONS } from '../../core/releases/release.js'
import { envelope } from '../../ui/envelope.js'
import { EXIT, type InputOf, printJson } from '../errors.js'
import type { versionSpec as Version } from '../specs/version.js'

/** What `version` says: this CLI's version, Node's, the manager release it reproduces by default, and all it can. */
export function versionInfo() {
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8'))
  return {
    version: pkg.version as string,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    manager_release: pkg.ongridManagerRelease as string,
    /** The releases `--manager-version` takes, oldest first (core/releases); the default is the last. */
    manager_versions: [...SUPPORTED_MANAGER_VERSIONS],
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
