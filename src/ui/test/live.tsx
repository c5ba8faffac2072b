import { Box, render, Static, Text } from 'ink'
import { useEffect, useState } from 'react'
import type { Item, ItemResult, RunSummary } from '../../core/testcases/suite.js'
import { colorWanted } from '../color.js'
import { chalkPaint, NO_PAINT } from '../lint/stylish.js'
import { terminalLineText, terminalText } from '../terminal.js'
import { type LiveView, SpecReporter } from './report.js'

const MAX_LINES = 6

interface Running {
  name: string
  started: number
  lines: string[]
  partial: string
}

interface State {
  /** Finished cases, rendered by the spec reporter (printed once, above the live part). */
  done: { id: number; text: string }[]
  running: Map<number, Running>
  passed: number
  failed: number
}

type Listener = (s: State) => void

function Live({
  total,
  color,
  subscribe,
}: {
  total: number
  /** Colours on (ui/color.ts decides); off, no colour or dim attribute is drawn. */
  color: boolean
  subscribe: (l: Listener) => void
}) {
  const [state, setState] = useState<State | null>(null)
  const [now, setNow] = useState(Date.now())
  useEffect(() => {
    subscribe((s) => setState({ ...s }))
    const t = setInterval(() => setNow(Date.now()), 100)
    return () => clearInterval(t)
  }, [subscribe])
  if (state === null) return null
  const running = [...state.running.entries()].sort((a, b) => a[0] - b[0])
  const current = running[0]?.[1]
  const stderr = current
    ? [...current.lines, ...(current.partial ? [current.partial] : [])].slice(-MAX_LINES)
    : []
  return (
    <>
      <Static items={state.done}>{(d) => <Text key={d.id}>{d.text}</Text>}</Static>
      <Box flexDirection="column">
        {running.map(([i, r]) => (
          <Text key={i} color={color ? 'cyan' : undefined}>
            ⠿ {r.name} {(Math.max(0, now - r.started) / 1000).toFixed(1)}s
          </Text>
        ))}
        {stderr.map((l, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines are append-only
          <Text key={i} dimColor={color}>
            │ {l}
          </Text>
        ))}
        <Text>
          <Text color={color ? 'green' : undefined}>{state.passed} passed</Text>,{' '}
          <Text color={color && state.failed > 0 ? 'red' : undefined}>{state.failed} failed</Text>,{' '}
          {total - state.passed - state.failed} to go
        </Text>
      </Box>
    </>
  )
}

/**
 * The run on a terminal: finished cases scroll up as the spec format prints them, the cases
 * in flight tick below with the first one's latest stderr lines, then the counts; failures
 * and the summary are printed once the view is gone.
 */
class InkLiveView implements LiveView {
  private state: State = { done: [], running: new Map(), passed: 0, failed: 0 }
  private listener: Listener | null = null
  private app: ReturnType<typeof render> | null = null
  private spec: SpecReporter | null = null
  private tail = ''
  private out: NodeJS.WriteStream = process.stdout

  async init(total: number, out: NodeJS.WriteStream, env: NodeJS.ProcessEnv): Promise<void> {
    this.out = out
    // The one colour policy (ui/color.ts), for the finished cases and the live part alike.
    const color = colorWanted(env, out.isTTY === true)
    const paint = color ? await chalkPaint() : NO_PAINT
    let id = 0
    let collecting = false
    this.spec = new SpecReporter(
      (text) => {
        if (collecting) this.tail += text
        else {
          this.state.done = [...this.state.done, { id: id++, text: text.replace(/\n$/, '') }]
          this.emit()
        }
      },
      process.cwd(),
      paint,
    )
    this.endCollect = () => {
      collecting = true
    }
    this.app = render(
      <Live
        total={total}
        color={color}
        subscribe={(l) => {
          this.listener = l
          l(this.state)
        }}
      />,
      { stdout: out, patchConsole: false, exitOnCtrlC: false },
    )
  }

  private endCollect = () => {}

  private emit() {
    this.listener?.(this.state)
  }

  start(item: Item, index: number): void {
    this.state.running.set(index, {
      name: terminalLineText(`${item.pack.name} › ${item.name}`, true),
      started: Date.now(),
      lines: [],
      partial: '',
    })
    this.emit()
  }

  stderr(_item: Item, index: number, chunk: Buffer): void {
    const r = this.state.running.get(index)
    if (!r) return
    // Shown on a terminal: control characters escaped (%q), not obeyed.
    const parts = (r.partial + terminalText(chunk.toString('utf8'), true)).split('\n')
    r.partial = parts.pop() ?? ''
    r.lines = [...r.lines, ...parts].slice(-MAX_LINES)
    this.emit()
  }

  result(r: ItemResult, index: number): void {
    this.state.running.delete(index)
    if (r.passed) this.state.passed++
    else this.state.failed++
    this.spec?.result(r)
  }

  end(s: RunSummary): void {
    this.endCollect()
    this.spec?.end(s)
  }

  async done(): Promise<void> {
    this.state.running.clear()
    this.emit()
    await new Promise((r) => setTimeout(r, 20))
    this.app?.unmount()
    await this.app?.waitUntilExit()
    this.out.write(this.tail)
  }
}

/** The live view on `out`; `env` says whether in colour (ui/color.ts). */
export async function createLiveView(
  total: number,
  out: NodeJS.WriteStream,
  env: NodeJS.ProcessEnv = process.env,
): Promise<LiveView> {
  const v = new InkLiveView()
  await v.init(total, out, env)
  return v
}
