import { Box, render, Text } from 'ink'
import { useEffect, useState } from 'react'
import type { ExecuteResult } from '../core/executor/executor.js'
import { toText } from '../core/go/gostring.js'
import type { SubprocessSkill } from '../core/loader/build.js'
import { colorWanted } from './color.js'
import type { RunView } from './run.js'
import { terminalLineText, terminalText } from './terminal.js'

const MAX_LINES = 12

interface State {
  lines: string[]
  partial: string
  result: ExecuteResult | null
}

type Listener = (s: State) => void

function Run({
  skill,
  subscribe,
  started,
  color,
}: {
  skill: SubprocessSkill
  subscribe: (l: Listener) => void
  started: number
  /** Colours on (ui/color.ts decides); off, no colour or dim attribute is drawn. */
  color: boolean
}) {
  const [state, setState] = useState<State>({ lines: [], partial: '', result: null })
  const [now, setNow] = useState(Date.now())
  useEffect(() => {
    subscribe(setState)
    const t = setInterval(() => setNow(Date.now()), 100)
    return () => clearInterval(t)
  }, [subscribe])
  const elapsed = ((state.result ? state.result.durationMs : now - started) / 1000).toFixed(1)
  const shown = [...state.lines, ...(state.partial ? [terminalText(state.partial, true)] : [])].slice(
    -MAX_LINES,
  )
  const r = state.result
  const name = terminalLineText(toText(skill.key), true)
  return (
    <Box flexDirection="column">
      {shown.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines are append-only
        <Text key={i} dimColor={color}>
          │ {l}
        </Text>
      ))}
      {r === null ? (
        <Text color={color ? 'cyan' : undefined}>
          ⠿ {name} running… {elapsed}s
        </Text>
      ) : r.ok ? (
        <Text color={color ? 'green' : undefined}>
          ✔ {name} ok in {elapsed}s
        </Text>
      ) : (
        <Text color={color ? (r.timedOut ? 'yellow' : 'red') : undefined}>
          ✘ {name} {r.timedOut ? 'timed out' : 'failed'} after {elapsed}s
          {r.exitCode !== null ? ` (exit ${r.exitCode})` : ''}
        </Text>
      )}
    </Box>
  )
}

/** Elapsed time, the entry's latest stderr lines, then its final status and duration. */
export class InkRunView implements RunView {
  private state: State = { lines: [], partial: '', result: null }
  private listener: Listener | null = null
  private readonly app: ReturnType<typeof render>

  constructor(skill: SubprocessSkill, out: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env) {
    this.app = render(
      <Run
        skill={skill}
        color={colorWanted(env, out.isTTY === true)}
        started={Date.now()}
        subscribe={(l) => {
          this.listener = l
          l(this.state)
        }}
      />,
      { stdout: out, patchConsole: false, exitOnCtrlC: false },
    )
  }

  stderr(chunk: Buffer): void {
    const text = this.state.partial + chunk.toString('utf8')
    // On the terminal: what the entry writes is shown, never obeyed (escape sequences escaped).
    const parts = text.split('\n').map((l) => terminalText(l, true))
    const partial = text.slice(text.lastIndexOf('\n') + 1)
    parts.pop()
    this.state = { ...this.state, lines: [...this.state.lines, ...parts].slice(-MAX_LINES), partial }
    this.listener?.(this.state)
  }

  async done(result: ExecuteResult): Promise<void> {
    this.state = { ...this.state, result }
    this.listener?.(this.state)
    await new Promise((r) => setTimeout(r, 20))
    this.app.unmount()
    await this.app.waitUntilExit()
  }
}
