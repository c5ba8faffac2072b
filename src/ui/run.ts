import type { SubprocessSkill } from '../core/build.js'
import type { ExecuteResult } from '../core/executor.js'
import { liveTerminal, TerminalStream } from './terminal.js'

/** How `run` shows an entry's stderr while it runs. */
export interface RunView {
  stderr(chunk: Buffer): void
  done(result: ExecuteResult): Promise<void>
}

/** Plain: the entry's stderr passes through as it arrives (control characters escaped on a terminal). */
class PlainView implements RunView {
  private readonly stream: TerminalStream
  constructor(private readonly out: NodeJS.WriteStream) {
    this.stream = new TerminalStream(out.isTTY === true)
  }
  stderr(chunk: Buffer): void {
    this.out.write(this.stream.push(chunk))
  }
  async done(): Promise<void> {
    const rest = this.stream.end()
    if (rest.length > 0) this.out.write(rest)
  }
}

/** On a terminal (liveTerminal), an ink view (loaded only then); elsewhere plain lines. */
export async function createRunView(skill: SubprocessSkill, out: NodeJS.WriteStream): Promise<RunView> {
  if (!liveTerminal(out)) return new PlainView(out)
  const { InkRunView } = await import('./run-view.js')
  return new InkRunView(skill, out)
}
