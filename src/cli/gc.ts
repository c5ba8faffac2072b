import { createRequire } from 'node:module'

let gcFn: (() => void) | null | undefined

/**
 * A full garbage collection, for the executor's `collectGarbage` hook (output dropped past a
 * cap is off-heap and piles up until one). The first call exposes V8's `gc` to this process —
 * a process-wide flag, hence here, at the CLI's edge, and never in core — and only then: the
 * modules are loaded on the path of large outputs alone, so every run starts without them.
 * Where V8 refuses, it does nothing.
 */
export function collectGarbage(): void {
  if (gcFn === undefined) {
    try {
      const require = createRequire(import.meta.url)
      ;(require('node:v8') as typeof import('node:v8')).setFlagsFromString('--expose-gc')
      gcFn = (require('node:vm') as typeof import('node:vm')).runInNewContext('gc') as () => void
    } catch {
      gcFn = null
    }
  }
  gcFn?.()
}
