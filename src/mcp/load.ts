/** The tools to serve: the loader over the dirs, then the bridge's choice; its lines on stderr (stdout is the protocol). */

import { type GoString, toBuffer } from '../core/go/gostring.js'
import type { SkillClass } from '../core/loader/build.js'
import { fifoBlocks, noToolsHints } from '../core/loader/explain.js'
import { type LoaderEvent, loadDirs } from '../core/loader/loader.js'
import { Registry } from '../core/loader/registry.js'
import { type McpTool, type NotServed, type Registered, selectTools } from '../core/mcp/tools.js'
import { terminalLine } from '../ui/terminal.js'

/**
 * The loader over the dirs (its lines on stderr: stdout is the protocol), then the tools the
 * bridge would offer. A reload prints its lines again.
 */
export function loadTools(
  dirs: readonly GoString[],
  classes: readonly SkillClass[],
  builtins: readonly GoString[],
) {
  const registered: Registered[] = []
  const lines: GoString[] = []
  const events: LoaderEvent[] = []
  const relative: GoString[] = []
  loadDirs(dirs, {
    registry: new Registry(builtins),
    onBlocking: (fifo) =>
      process.stderr.write(
        toBuffer(`mcp: ${terminalLine(fifoBlocks(fifo), process.stderr.isTTY === true)}\n`),
      ),
    onEvent: (e) => {
      lines.push(e.message)
      events.push(e)
      if (e.kind === 'registered' && e.skill) registered.push({ skill: e.skill, parsed: e.parsed })
      if (e.kind === 'skip-non-absolute') relative.push(e.path)
    },
  })
  const { tools, skipped } = selectTools(registered, classes)
  return { tools, skipped, lines, events, registered: registered.length, relative }
}

/** No tool to serve: why, on stderr whatever else is asked (a client shows the user nothing). */
export function whyNoTools(r: {
  tools: McpTool[]
  registered: number
  relative: GoString[]
  lines: GoString[]
}): void {
  if (r.tools.length > 0) return
  const tty = process.stderr.isTTY === true
  const hints = noToolsHints(r).map((h) => `mcp: hint: ${terminalLine(h, tty)}\n`)
  process.stderr.write(toBuffer(hints.join('')))
}

/** The loader's lines and what is served, on stderr (stdout is the protocol). */
export function printLoad(r: {
  lines: GoString[]
  skipped: NotServed[]
  tools: McpTool[]
  registered: number
  relative: GoString[]
}): void {
  const all = [...r.lines, ...r.skipped.map((s) => s.line)]
  const summary = `mcp: serving ${r.tools.length} tool${r.tools.length === 1 ? '' : 's'} (${r.registered} skill${r.registered === 1 ? '' : 's'} registered)`
  // The loader's lines, byte-exact when piped; on a terminal escaped (%q), a newline included.
  const tty = process.stderr.isTTY === true
  process.stderr.write(toBuffer(`${all.map((l) => `${terminalLine(l, tty)}\n`).join('')}${summary}\n`))
  whyNoTools(r)
}
