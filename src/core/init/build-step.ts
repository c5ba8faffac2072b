import { spawn } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'
import type { BuildStep } from './templates.js'

export type BuildOutcome =
  | { status: 'built'; output: string }
  | { status: 'missing-tool'; tool: string }
  | { status: 'failed'; output: string; code: number | null }

/** Is `program` an executable file in one of PATH's dirs? */
export function onPath(program: string, path = process.env.PATH ?? ''): boolean {
  return path
    .split(delimiter)
    .filter((d) => d !== '')
    .some((d) => {
      try {
        accessSync(join(d, program), constants.X_OK)
        return true
      } catch {
        return false
      }
    })
}

/** Keeps the last `max` bytes of what the build printed (compilers can be chatty). */
const MAX_OUTPUT = 8 * 1024

/**
 * Runs the template's build script with /bin/sh in the staged pack, when every program it
 * requires is on PATH. Its output is collected, not shown: init reports it on failure.
 */
export async function runBuild(step: BuildStep, dir: string, signal?: AbortSignal): Promise<BuildOutcome> {
  const tool = step.requires.find((p) => !onPath(p))
  if (tool !== undefined) return { status: 'missing-tool', tool }
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', [step.script], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], signal })
    let output = ''
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-MAX_OUTPUT)
    }
    child.stdout.on('data', collect)
    child.stderr.on('data', collect)
    child.on('error', reject)
    child.on('close', (code) => {
      if (signal?.aborted) reject(signal.reason)
      else if (code === 0) resolve({ status: 'built', output })
      else resolve({ status: 'failed', output: output.trim(), code })
    })
  })
}
