/**
 * The packs under the PATHs as the manager's boot registers them and its bridge offers them:
 * built by the loader's checks, the first of a name registered (later ones are "already
 * registered"), safe skills only, defined as `lint --show-tool` defines them (core/tool-def.ts).
 */

import { execute, timedOutText } from '../executor/executor.js'
import type { GoBytes, GoString } from '../go/gostring.js'
import { fromBuffer, toText } from '../go/gostring.js'
import { collectTargets } from '../lint/targets.js'
import { buildSubprocessSkill, type SubprocessSkill } from '../loader/build.js'
import { parseManifest } from '../loader/manifest.js'
import { notJudgedText, readManifest, whole } from '../loader/manifest-read.js'
import { alreadyRegisteredText, buildFailedText } from '../loader/registry.js'
import { toolDefinition } from '../tool-def.js'
import { type PackTool, TOOL_TIMEOUT_MS } from './request.js'

export interface EvalPack extends PackTool {
  skill: SubprocessSkill
  /** The pack dir (text). */
  dir: string
  /** The parameters as a JS value, for checking a call's arguments (null: no schema to check). */
  schema: unknown
}

export interface PackScan {
  packs: EvalPack[]
  /** Packs not offered to the model, each with why (the loader's or the bridge's line). */
  notOffered: { path: string; line: string }[]
}

/** `builtinKeys`: the skill keys registered before the loader runs (the release's). */
export function scanPacks(
  paths: readonly GoBytes[],
  builtinKeys: readonly string[],
  root?: GoBytes,
): PackScan {
  const targets = collectTargets(paths, root)
  const packs: EvalPack[] = []
  const notOffered: PackScan['notOffered'] = []
  const taken = new Set<GoString>(builtinKeys)
  for (const t of targets.files) {
    if (t.kind !== 'manifest') continue
    const path = toText(t.path)
    let read = readManifest(t.path)
    if (read.kind === 'fifo') read = whole(t.path)
    if (read.kind !== 'read') {
      notOffered.push({ path, line: notJudgedText(path, read.kind) })
      continue
    }
    const file = read.file
    const parsed = parseManifest(t.path, () => file)
    if (parsed.err) {
      notOffered.push({ path, line: `skill loader: parse ${path}: ${toText(parsed.err.error())}` })
      continue
    }
    const built = buildSubprocessSkill(parsed.manifest, t.path, t.root)
    if (!built.ok) {
      notOffered.push({
        path,
        line: toText(buildFailedText(parsed.manifest.name, t.path, built.err.error())),
      })
      continue
    }
    const skill = built.value
    if (taken.has(skill.key)) {
      notOffered.push({ path, line: `skill loader: ${toText(alreadyRegisteredText(skill.key, t.path))}` })
      continue
    }
    taken.add(skill.key)
    let schemaAt: number | null = null
    for (const k of parsed.keys) if (k.field === 'schema') schemaAt = k.valueOffset
    const def = toolDefinition(skill, parsed.raw ?? '', schemaAt)
    if (!def.offered) {
      notOffered.push({
        path,
        line:
          def.reason === 'class'
            ? `${toText(skill.key)}: class ${skill.class}, not offered (the bridge offers safe skills only)`
            : toText(def.err?.error() ?? 'schema'),
      })
      continue
    }
    let schema: unknown = null
    try {
      schema = JSON.parse(toText(def.parameters))
    } catch {}
    packs.push({
      name: def.name,
      description: def.description,
      parameters: def.parameters,
      json: def.json,
      source: path,
      skill,
      dir: toText(t.path).replace(/\/skill\.json$/, ''),
      schema,
    })
  }
  return { packs, notOffered }
}

export interface CallPackOptions {
  signal: AbortSignal
  /** The executor's hook for long dropped output (the CLI passes one). */
  collectGarbage?: () => void
  /** The agent's deadline for one tool call (agent.Config.ToolTimeout). */
  capMs?: number
}

/**
 * The bridge's call of a pack: the executor, under the agent's tool deadline. The agent's context
 * ends at capMs; SubprocessSkill.Execute's own deadline is the nearer one, and either ends in
 * Execute's own line, which names the skill's timeout (its context is derived from the agent's).
 */
export async function callPack(
  packs: readonly EvalPack[],
  name: GoString,
  params: GoString,
  { signal, collectGarbage, capMs = TOOL_TIMEOUT_MS }: CallPackOptions,
): Promise<{ ok: boolean; stdout: GoString; error: string | null }> {
  const pack = packs.find((p) => p.name === name)
  if (pack === undefined) return { ok: false, stdout: '', error: `not found: ${toText(name)}` }
  const capNs = BigInt(capMs) * 1_000_000n
  const skill = pack.skill.timeoutNs > capNs ? { ...pack.skill, timeoutNs: capNs } : pack.skill
  const r = await execute(skill, params, { environ: process.env, signal, collectGarbage })
  const error = r.timedOut ? timedOutText(pack.skill.key, pack.skill.timeoutNs) : r.error
  return { ok: r.ok, stdout: fromBuffer(r.stdout), error }
}
