// Running one measured command, and the statistics over runs.
import { spawnSync } from 'node:child_process'
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs'
import { join } from 'node:path'

const PROBE = new URL('./rss-probe.mjs', import.meta.url)

/** How peak memory is measured, for the report. */
export const RSS_METHOD =
  'the kernel’s ru_maxrss of the measured node process (process.resourceUsage().maxRSS), written on exit ' +
  'by scripts/bench/rss-probe.mjs, preloaded with NODE_OPTIONS=--import=… in a run of its own (never a timed one); a budget uses the largest peak of the runs'

/**
 * Runs `cmd args` once, stdout and stderr to files (never to a pipe), stdin from /dev/null
 * (or `input` through a pipe). Returns wall time in ms from just before spawn to exit
 * (spawnSync: nothing else runs meanwhile), the exit code or signal and, with `rss`,
 * the peak RSS in bytes and the CPU time in ms (null when the probe wrote nothing).
 */
export function runOnce({
  cmd,
  args,
  cwd,
  env,
  stdout,
  stderr,
  input,
  rss = false,
  heap = false,
  rssDir,
  timeoutMs = 600_000,
}) {
  const childEnv = { ...env }
  delete childEnv.NODE_OPTIONS
  if (rss) {
    // A file URL: spaces are %-encoded, so NODE_OPTIONS cannot split it.
    childEnv.NODE_OPTIONS = `--import=${PROBE.href}`
    childEnv.BENCH_RSS_DIR = rssDir
    if (heap) childEnv.BENCH_HEAP = '1'
  }
  const out = openSync(stdout ?? '/dev/null', 'w')
  const err = openSync(stderr ?? '/dev/null', 'w')
  let r
  let wallMs
  const t0 = process.hrtime.bigint()
  try {
    r = spawnSync(cmd, args, {
      cwd,
      env: childEnv,
      stdio: [input === undefined ? 'ignore' : 'pipe', out, err],
      input,
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
    })
    wallMs = Number(process.hrtime.bigint() - t0) / 1e6
    // Untimed: what this run wrote reaches the disk now, not during the next figure — a figure
    // that syncs (run's audit row) would otherwise wait for another's 100 MiB of output.
    if (stdout) fsyncSync(out)
    if (stderr) fsyncSync(err)
  } finally {
    closeSync(out)
    closeSync(err)
  }
  let rssBytes = null
  let cpuMs = null
  let heapBytes = null
  if (rss && r.pid) {
    const f = join(rssDir, `${r.pid}.json`)
    if (existsSync(f)) {
      const probe = JSON.parse(readFileSync(f, 'utf8'))
      rssBytes = probe.maxRSSKiB * 1024
      cpuMs = probe.cpuMs
      heapBytes = probe.heapBytes ?? null
      rmSync(f)
    }
  }
  return {
    wallMs,
    code: r.status,
    signal: r.signal,
    error: r.error ? r.error.message : null,
    rssBytes,
    cpuMs,
    heapBytes,
  }
}

/**
 * One run of a figure in a round. `once(probed)` runs it, with the RSS probe or without, and
 * returns `{ r, bad }` (runOnce's result, and what is wrong with the run or null). The time is
 * always an unprobed run's: the probe is an ESM preload (NODE_OPTIONS=--import), about 7 ms of
 * its own on a run of node, which bare node, the floor of every ratio, does not pay. A figure with
 * `rss` is run a second time, probed, for its peak memory, CPU time and live heap.
 */
export function timedAndProbed(once, rss) {
  const timed = once(false)
  if (timed.bad !== null || !rss) return timed
  const probed = once(true)
  if (probed.bad !== null) return probed
  const { rssBytes, cpuMs, heapBytes } = probed.r
  return { r: { ...timed.r, rssBytes, cpuMs, heapBytes }, bad: null }
}

/** Empties (or creates) the dir the probe writes into. */
export function resetDir(dir) {
  mkdirSync(dir, { recursive: true })
  for (const f of readdirSync(dir)) rmSync(join(dir, f), { force: true, recursive: true })
}

export function stats(xs) {
  if (xs.length === 0) return null
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  const median = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
  return { median, min: s[0], max: s[s.length - 1], n: s.length }
}
