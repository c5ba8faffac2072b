import { UserError } from '../core/errors.js'
import { signalExitCode } from './signals.js'

/**
 * Questions asked on the terminal (stdin a TTY, the prompt on stderr). `askHidden` reads in raw
 * mode and echoes nothing: a password never reaches the screen, the scrollback or a recording.
 * Ctrl-C ends the command as a stop signal would (130); Ctrl-D on an empty line gives up.
 */
export function askHidden(prompt: string): Promise<string> {
  return ask(prompt, false)
}

export function askLine(prompt: string): Promise<string> {
  return ask(prompt, true)
}

function ask(prompt: string, echo: boolean): Promise<string> {
  const input = process.stdin
  process.stderr.write(prompt)
  return new Promise((resolve, reject) => {
    let value = ''
    input.setRawMode?.(true)
    input.resume()
    const done = (err: Error | null) => {
      input.setRawMode?.(false)
      input.pause()
      input.off('data', onData)
      process.stderr.write('\n')
      if (err) reject(err)
      else resolve(value)
    }
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done(null)
        if (ch === '\u0003') {
          done(null)
          process.exit(signalExitCode('SIGINT'))
        }
        if (ch === '\u0004') {
          if (value === '') return done(new UserError('no answer (end of input)'))
          return done(null)
        }
        if (ch === '\u007f' || ch === '\b') {
          if (value.length > 0) {
            value = [...value].slice(0, -1).join('')
            if (echo) process.stderr.write('\b \b')
          }
          continue
        }
        if (ch === '\u0015') {
          if (echo) process.stderr.write('\b \b'.repeat([...value].length))
          value = ''
          continue
        }
        if (ch < ' ') continue
        value += ch
        if (echo) process.stderr.write(ch)
      }
    }
    input.on('data', onData)
  })
}
