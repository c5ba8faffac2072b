#!/usr/bin/env node
// {{name}}: checks whether a TCP port on a host accepts connections.
//
// The ongrid manager runs this file with the call's JSON args on stdin and only
// the environment variables listed in env_allow (PATH is there so that the
// `#!/usr/bin/env node` line can find node). Node's standard library only.
// stdout gets exactly one JSON object; progress goes to stderr; bad args exit 1
// with one stderr line naming the field.
//
//   args:   {"host": "db1.internal", "port": 5432, "timeout_ms": 2000}
//   result: {"host": "db1.internal", "port": 5432, "reachable": true, "latency_ms": 0.412, "error": null}
//
// An unreachable port is a result (reachable: false), not a failure.
import net from 'node:net'

const SKILL = '{{name}}'
const FIELDS = ['host', 'port', 'timeout_ms']
const DEFAULT_TIMEOUT_MS = 2000
const HOST = /^[A-Za-z0-9.:-]{1,253}$/

/** Args that do not match the schema in skill.json; the message names the field. */
class ArgsError extends Error {}

function log(message) {
  process.stderr.write(`${SKILL}: ${message}\n`)
}

function integer(args, field, low, high) {
  const value = args[field]
  if (!Number.isInteger(value) || value < low || value > high) {
    throw new ArgsError(`${field}: must be an integer from ${low} to ${high}`)
  }
  return value
}

/** The args as the schema in skill.json states them. */
function parseArgs(raw) {
  let args = {}
  if (raw.trim() !== '') {
    try {
      args = JSON.parse(raw)
    } catch (e) {
      throw new ArgsError(`not valid JSON: ${e.message}`)
    }
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    throw new ArgsError('args must be a JSON object')
  }
  for (const field of Object.keys(args).sort()) {
    if (!FIELDS.includes(field)) throw new ArgsError(`${field}: unknown field`)
  }
  for (const field of ['host', 'port']) {
    if (!Object.hasOwn(args, field)) throw new ArgsError(`${field}: required`)
  }
  if (typeof args.host !== 'string' || !HOST.test(args.host)) {
    throw new ArgsError('host: must be a host name, IPv4 or IPv6 address (letters, digits, . - :)')
  }
  return {
    host: args.host,
    port: integer(args, 'port', 1, 65535),
    timeoutMs: Object.hasOwn(args, 'timeout_ms') ? integer(args, 'timeout_ms', 1, 10000) : DEFAULT_TIMEOUT_MS,
  }
}

/** Connects once; the deadline covers the name lookup too. */
function probe(host, port, timeoutMs) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint()
    const socket = net.connect({ host, port })
    const finish = (reachable, error) => {
      clearTimeout(timer)
      socket.destroy()
      const latencyMs = reachable ? Math.round(Number(process.hrtime.bigint() - started) / 1e3) / 1e3 : null
      resolve({ reachable, latencyMs, error })
    }
    const timer = setTimeout(() => finish(false, `timed out after ${timeoutMs} ms`), timeoutMs)
    socket.once('connect', () => finish(true, null))
    socket.once('error', (e) => finish(false, e.message))
  })
}

async function readStdin() {
  const chunks = []
  for await (const chunk of process.stdin) chunks.push(chunk)
  return Buffer.concat(chunks).toString('utf8')
}

async function main() {
  let args
  try {
    args = parseArgs(await readStdin())
  } catch (e) {
    if (!(e instanceof ArgsError)) throw e
    log(`invalid args: ${e.message}`)
    return 1
  }
  const { host, port, timeoutMs } = args
  log(`connecting to ${host}:${port} (timeout ${timeoutMs} ms)`)
  const { reachable, latencyMs, error } = await probe(host, port, timeoutMs)
  log(reachable ? `reachable in ${latencyMs} ms` : `not reachable: ${error}`)
  const result = { host, port, reachable, latency_ms: latencyMs, error }
  process.stdout.write(`${JSON.stringify(result)}\n`)
  return 0
}

main().then(
  // Exit now: a name lookup still running after a timeout would keep node alive.
  (code) => process.stdout.write('', () => process.exit(code)),
  (e) => {
    log(`failed: ${e.message}`)
    process.exit(1)
  },
)
