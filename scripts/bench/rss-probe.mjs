// Peak-memory probe, preloaded into a measured node process with
//   NODE_OPTIONS=--import=<file URL of this module>  BENCH_RSS_DIR=<dir>
// On exit it writes <dir>/<pid>.json with process.resourceUsage().maxRSS (the kernel's
// ru_maxrss for this process: its peak resident set, in KiB). Files are keyed by pid
// because NODE_OPTIONS is inherited: a node process the CLI itself spawns writes its own
// file and does not overwrite the measured one. It also records the process's CPU time
// (user + system), which a busy machine inflates less than wall time. 'exit' runs on a normal end and on
// process.exit(); a process killed by a signal writes nothing, and the bench then
// reports the figure as unmeasured (never as a pass).

import { writeFileSync } from 'node:fs'
import { resourceUsage } from 'node:process'

const dir = process.env.BENCH_RSS_DIR
if (dir) {
  process.on('exit', (code) => {
    try {
      const { maxRSS, userCPUTime, systemCPUTime } = resourceUsage()
      const cpuMs = (userCPUTime + systemCPUTime) / 1000
      writeFileSync(`${dir}/${process.pid}.json`, JSON.stringify({ maxRSSKiB: maxRSS, cpuMs, code }))
    } catch {
      // Never change the measured process's behaviour.
    }
  })
}
