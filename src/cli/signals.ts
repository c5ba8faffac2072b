import { constants } from 'node:os'

/**
 * The signals a command stops on, whatever it is doing: Ctrl-C, kill, a closed terminal or SSH
 * session, Ctrl-\. Each command answers them alike: it stops what it runs (a skill's process
 * group, a follow, a write in progress) and exits 128 + the signal's number, as a shell reports
 * a process the signal killed.
 */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const
export type StopSignal = (typeof STOP_SIGNALS)[number]

/** 128 + the signal's number: 130 for SIGINT, 143 SIGTERM, 129 SIGHUP, 131 SIGQUIT. */
export function signalExitCode(signal: StopSignal): number {
  return 128 + constants.signals[signal]
}

/** The exit code of the first stop signal a command's handler received; null until one has. */
let received: number | null = null
/** Registrations of onStopSignals not yet removed. */
let active = 0
let lateWatch = false

/**
 * 128 + the first stop signal received by a command, or null: whatever the command then returned
 * or threw, that is the exit (src/cli/fast.ts and BaseCommand apply it), never 0 or 2.
 */
export function stoppedCode(): number | null {
  return received
}

/**
 * Calls `onStop` with the first stop signal received (and its exit code) until the returned
 * function is called. A second signal of any kind exits at once with that signal's code.
 *
 * A signal is handed to JavaScript only when the event loop turns: one that lands while the main
 * thread is busy (a walk, a big parse, a report written at the end) is still pending when the
 * command removes its handlers. So removing them leaves handlers of last resort (lateSignals) that
 * exit 128 + n with a signal that comes through once no command handler is left; and the loop
 * turns once more before the process exits, for a signal still pending then.
 */
export function onStopSignals(onStop: (signal: StopSignal, code: number) => void): () => void {
  let stopped = false
  active++
  const handlers = STOP_SIGNALS.map((s) => {
    const h = () => {
      if (stopped) process.exit(signalExitCode(s))
      stopped = true
      received ??= signalExitCode(s)
      onStop(s, signalExitCode(s))
    }
    process.on(s, h)
    return [s, h] as const
  })
  let off = false
  return () => {
    if (off) return
    off = true
    // Before the command's handlers go: Node stops listening for a signal (and drops one pending)
    // when its last listener is removed.
    lateSignals()
    active--
    for (const [s, h] of handlers) process.off(s, h)
  }
}

/** Installs, once, the handlers of last resort and the last turn of the loop (see onStopSignals). */
function lateSignals(): void {
  if (lateWatch) return
  lateWatch = true
  for (const s of STOP_SIGNALS) {
    process.on(s, () => {
      if (active > 0) return // a command's own handler has it
      process.exit(signalExitCode(s))
    })
  }
  // The loop ends without reading a signal that came during the last synchronous work: one more
  // turn (an immediate makes libuv poll, and with it read the signals pending) delivers it.
  process.once('beforeExit', () => setImmediate(() => {}))
}
