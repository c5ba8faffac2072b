/** A counting semaphore: at most `size` holders; waiters are served in arrival order. */
export class Slots {
  private used = 0
  private readonly waiting: { grant: () => void; signal?: AbortSignal; onAbort?: () => void }[] = []

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError('slots: size must be a positive integer')
  }

  /** Holders right now. */
  get busy(): number {
    return this.used
  }

  /** Callers waiting for a slot. */
  get queued(): number {
    return this.waiting.length
  }

  /** Resolves once a slot is held; rejects with the signal's reason when it aborts first. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason)
    if (this.used < this.size) {
      this.used++
      return Promise.resolve()
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: (typeof this.waiting)[number] = { grant: resolve, signal }
      if (signal) {
        waiter.onAbort = () => {
          const at = this.waiting.indexOf(waiter)
          if (at >= 0) this.waiting.splice(at, 1)
          reject(signal.reason)
        }
        signal.addEventListener('abort', waiter.onAbort, { once: true })
      }
      this.waiting.push(waiter)
    })
  }

  release(): void {
    const next = this.waiting.shift()
    if (next === undefined) {
      this.used--
      return
    }
    // The slot passes straight to the next waiter.
    if (next.onAbort) next.signal?.removeEventListener('abort', next.onAbort)
    next.grant()
  }
}
