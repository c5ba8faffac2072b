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

/**
 * Calls `onStop` with the first stop signal received (and its exit code) until the returned
 * function is called. A second signal of any kind exits at once with that signal's code.
 */
export function onStopSignals(onStop: (signal: StopSignal, code: number) => void): () => void {
  let stopped = false
  const handlers = STOP_SIGNALS.map((s) => {
    const h = () => {
      if (stopped) process.exit(signalExitCode(s))
      stopped = true
      onStop(s, signalExitCode(s))
    }
    process.on(s, h)
    return [s, h] as const
  })
  return () => {
    for (const [s, h] of handlers) process.off(s, h)
  }
}
