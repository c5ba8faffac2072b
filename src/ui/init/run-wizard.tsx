import { render } from 'ink'
import type { InitAnswers } from '../../core/init/options.js'
import { colorWanted } from '../color.js'
import { Wizard, type WizardProps } from './wizard.js'

/** Runs the wizard on the terminal (drawn on stderr, so stdout stays for --json); null when aborted. */
export async function runWizard(
  props: Omit<WizardProps, 'onDone' | 'onAbort' | 'color'>,
  io: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream } = {
    stdin: process.stdin,
    stdout: process.stderr,
  },
): Promise<InitAnswers | null> {
  let settle: (a: InitAnswers | null) => void = () => {}
  const answered = new Promise<InitAnswers | null>((r) => {
    settle = r
  })
  const color = colorWanted(process.env, io.stdout.isTTY === true)
  const wizard = <Wizard {...props} color={color} onDone={settle} onAbort={() => settle(null)} />
  const app = render(wizard, {
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
