import type { SubprocessSkill } from '../core/build.js'
import type { ExecuteResult } from '../core/executor.js'

/** How `run` shows an entry's stderr while it runs. */
export interface RunView {
  stderr(chunk: Buffer): void
  done(result: ExecuteResult): Promise<void>
}

/** Plain: the entry's stderr passes through as it arrives. */
class PlainView implements RunView {
  constructor(private readonly out: NodeJS.WriteStream) {}
  stderr(chunk: Buffer): void {
    this.out.write(chunk)
  }
  async done(): Promise<void> {}
}

/** On a terminal, an ink view (loaded only then); elsewhere plain lines. */
export async function createRunView(skill: SubprocessSkill, out: NodeJS.WriteStream): Promise<RunView> {
  if (!out.isTTY || process.env.CI) return new PlainView(out)
  const { InkRunView } = await import('./run-view.js')
  return new InkRunView(skill, out)
}
