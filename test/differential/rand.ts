/** A small seeded PRNG (sfc32, seeded through splitmix32) for reproducible test inputs. */
export class Rand {
  private a: number
  private b: number
  private c: number
  private d: number

  constructor(seed: number) {
    let s = seed >>> 0
    const next = (): number => {
      s = (s + 0x9e3779b9) >>> 0
      let z = s
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0
      return (z ^ (z >>> 16)) >>> 0
    }
    this.a = next()
    this.b = next()
    this.c = next()
    this.d = next()
    for (let i = 0; i < 12; i++) this.u32()
  }

  /** A uniform 32-bit unsigned integer. */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0
    this.d = (this.d + 1) | 0
    this.a = this.b ^ (this.b >>> 9)
    this.b = (this.c + (this.c << 3)) | 0
    this.c = (this.c << 21) | (this.c >>> 11)
    this.c = (this.c + t) | 0
    return t >>> 0
  }

  /** A uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor((this.u32() / 0x100000000) * n)
  }

  /** A uniform integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1)
  }

  chance(p: number): boolean {
    return this.u32() / 0x100000000 < p
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]
  }

  /** Picks by weight: [[weight, value], ...]. */
  weighted<T>(items: readonly (readonly [number, T])[]): T {
    let total = 0
    for (const [w] of items) total += w
    let x = this.u32() / 0x100000000
    x *= total
    for (const [w, v] of items) {
      if (x < w) return v
      x -= w
    }
    return items[items.length - 1][1]
  }

  /** A uniform unsigned bigint of the given bit width. */
  bits(n: number): bigint {
    let v = 0n
    for (let i = 0; i < n; i += 32) v = (v << 32n) | BigInt(this.u32())
    const extra = (Math.ceil(n / 32) * 32 - n) | 0
    return v >> BigInt(extra)
  }

  /** A random byte string of the given length. */
  bytes(n: number): string {
    let s = ''
    for (let i = 0; i < n; i++) s += String.fromCharCode(this.int(256))
    return s
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1)
      ;[items[i], items[j]] = [items[j], items[i]]
    }
    return items
  }
}
