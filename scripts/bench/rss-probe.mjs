// Peak-memory probe, preloaded into a measured node process with
//   NODE_OPTIONS=--import=<file URL of this module>  BENCH_RSS_DIR=<dir>
// On exit it writes <dir>/<pid>.json with process.resourceUsage().maxRSS (the kernel's
// ru_maxrss for this process: its peak resident set, in KiB). Files are keyed by pid
// because NODE_OPTIONS is inherited: a node process the CLI itself spawns writes its own
// file and does not overwrite the measured one. It also records the process's CPU time
// (user + system), which a busy machine inflates less than wall time. 'exit' runs on a normal end and on
// process.exit(); a process killed by a signal writes nothing, and the bench then
// reports the figure as unmeasured (never as a pass).
// With BENCH_HEAP=1 it also records the live heap at exit: heapUsed after a full garbage
// collection (forced through V8's gc, exposed at exit only), the bytes still reachable then,
// which a leak grows and a larger peak does not.

import { writeFileSync } from 'node:fs'
import { memoryUsage, resourceUsage } from 'node:process'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

function liveHeap() {
  setFlagsFromString('--expose-gc')
  runInNewContext('gc')()
  return memoryUsage().heapUsed
}

const dir = process.env.BENCH_RSS_DIR
if (dir) {
  process.on('exit', (code) => {
    try {
      const { maxRSS, userCPUTime, systemCPUTime } = resourceUsage()
      const cpuMs = (userCPUTime + systemCPUTime) / 1000
      const heapBytes = process.env.BENCH_HEAP === '1' ? liveHeap() : null
      writeFileSync(
        `${dir}/${process.pid}.json`,
        JSON.stringify({ maxRSSKiB: maxRSS, cpuMs, heapBytes, code }),
      )
    } catch {
      // Never change the measured process's behaviour.
    }
  })
}
