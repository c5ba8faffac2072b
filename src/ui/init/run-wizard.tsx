import { render } from 'ink'
import type { InitAnswers } from '../../core/init/options.js'
import { Wizard, type WizardProps } from './wizard.js'

/** Runs the wizard on the terminal (drawn on stderr, so stdout stays for --json); null when aborted. */
export async function runWizard(
  props: Omit<WizardProps, 'onDone' | 'onAbort'>,
  io: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream } = {
    stdin: process.stdin,
    stdout: process.stderr,
  },
): Promise<InitAnswers | null> {
  let settle: (a: InitAnswers | null) => void = () => {}
  const answered = new Promise<InitAnswers | null>((r) => {
    settle = r
  })
  const app = render(<Wizard {...props} onDone={settle} onAbort={() => settle(null)} />, {
    stdin: io.stdin,
    stdout: io.stdout,
    exitOnCtrlC: false,
    patchConsole: false,
  })
  const answers = await answered
  await new Promise((r) => setTimeout(r, 20)) // let the last frame (all ✔) render
  app.unmount()
  await app.waitUntilExit()
  return answers
}
