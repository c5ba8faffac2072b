import type { GoString } from '../go/gostring.js'
import { quote } from '../go/strconv/quote.js'
import { managerRelease } from '../releases/release.js'

/** The loader's line when a manifest parses but its skill does not build (loader.go). */
export function buildFailedText(name: GoString, path: GoString, err: GoString): GoString {
  return `skill loader: build ${name} (${path}): ${err}`
}

/** The registry's refusal of a taken key, as the loader logs it after `skill loader: `. */
export function alreadyRegisteredText(name: GoString, path: GoString): GoString {
  return `skill ${quote(name)} already registered, skipping ${path}`
}

/** The process-wide skill registry, reduced to what the loader consults: which keys are taken. */
export class Registry {
  private readonly keys = new Set<GoString>()
  readonly builtins: ReadonlySet<GoString>

  /**
   * `builtins`: the keys the manager registers before its loader runs (the builtin skills of
   * internal/skill/builtin), so a pack that takes one is skipped as "already registered"; by
   * default the newest release's (core/releases).
   */
  constructor(builtins: readonly GoString[] = managerRelease().builtinSkillKeys) {
    for (const k of builtins) this.keys.add(k)
    this.builtins = new Set(builtins)
  }

  has(key: GoString): boolean {
    return this.keys.has(key)
  }

  add(key: GoString): void {
    this.keys.add(key)
  }
}
