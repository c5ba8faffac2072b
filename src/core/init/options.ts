import { fromText, toText } from '../go/gostring.js'
import { SECOND } from '../go/time/duration.js'
import { checkName, DEFAULT_CATEGORY, type SkillClass } from '../loader/build.js'
import { LLM_CALL_DEADLINE_NS, MAX_DESCRIPTION, MAX_TIMEOUT_NS, MIN_DESCRIPTION } from '../practice.js'
import { managerRelease } from '../releases/release.js'
import { parseTimeoutText } from '../timeout-flag.js'
import type { Param } from './params.js'

/** What `init` asks for: the wizard's answers, or the flags and defaults. */
export interface InitAnswers {
  name: string
  description: string
  class: SkillClass
  category: string
  timeoutSeconds: number
  /** The template's name, or a path to a custom template dir. */
  template: string
  envAllow: string[]
  /** The skill's params; none (or absent): the template's own example (a TCP port checker). */
  params?: Param[]
}

export const DEFAULT_CLASS: SkillClass = 'safe'
export { DEFAULT_CATEGORY }
export const MAX_TIMEOUT_SECONDS = 86_400
/** The legacy agent cuts each LLM tool call at 15 s. */
const LLM_DEADLINE_SECONDS = Number(LLM_CALL_DEADLINE_NS / SECOND)
const LONG_TIMEOUT_SECONDS = Number(MAX_TIMEOUT_NS / SECOND)

/**
 * The timeout written when none is given: for a safe skill the legacy agent's per-call
 * deadline (15 s: a longer one is cut there anyway), else the manager's own default (30 s).
 */
export function defaultTimeoutSeconds(c: SkillClass): number {
  return c === 'safe' ? LLM_DEADLINE_SECONDS : 30
}
export const DEFAULT_TEMPLATE = 'python'

/** Each class, and who may call a skill of that class (the manager's REST gate and LLM bridge). */
export const CLASS_CHOICES: readonly { value: SkillClass; note: string }[] = [
  {
    value: 'safe',
    note: 'reaches the LLM: offered to it as a tool, and every role may run it through the REST API',
  },
  {
    value: 'mutating',
    note: 'needs a human: never offered to the LLM; only the admin and user roles may run it',
  },
  {
    value: 'dangerous',
    note: 'refused: every caller, admin included, gets 403 (SOP signatures are not implemented)',
  },
]

export function classNote(c: SkillClass): string {
  return CLASS_CHOICES.find((x) => x.value === c)?.note ?? ''
}

/**
 * The name rule: the loader's check with the loader's message (`name "Foo" must be
 * lower_snake [a-z0-9_]`), then the manager's builtin keys, which the loader would skip.
 */
export function nameProblem(name: string): string | null {
  const err = checkName(fromText(name))
  if (err) return toText(err.error())
  if (managerRelease().builtinSkillKeys.includes(name)) {
    return `name "${name}" is taken by a builtin skill of the manager: its loader would skip the pack ("already registered")`
  }
  return null
}

/** The loader requires a description; one of blanks only says nothing to the LLM either. */
export function descriptionProblem(description: string): string | null {
  return description.trim() === '' ? 'description required' : null
}

/** What `lint` would say of a usable description (its practice/description-length rule). */
export function descriptionNote(description: string): string | null {
  const n = [...description].length
  if (n < MIN_DESCRIPTION) {
    return `${n} characters: lint wants at least ${MIN_DESCRIPTION}, saying what the skill does and when to use it`
  }
  if (n > MAX_DESCRIPTION)
    return `${n} characters: lint wants at most ${MAX_DESCRIPTION} (the LLM reads it every turn)`
  return null
}

/** What `lint` would say of a timeout (its practice/timeout-* rules). */
export function timeoutNote(seconds: number, c: SkillClass): string | null {
  if (seconds > LONG_TIMEOUT_SECONDS) {
    return `${seconds} s is above ${LONG_TIMEOUT_SECONDS / 60} minutes: lint warns (a hung run holds a process that long)`
  }
  if (c === 'safe' && seconds > LLM_DEADLINE_SECONDS) {
    return `the legacy agent cuts each LLM tool call at ${LLM_DEADLINE_SECONDS} s, so LLM calls get ${LLM_DEADLINE_SECONDS} s, not ${seconds} s`
  }
  return null
}

export function categoryProblem(category: string): string | null {
  if (category.trim() === '') return 'category must not be empty (the manager defaults it to "external")'
  if (/[\x00-\x1f\x7f]/.test(category)) return 'category must be one line of text, without control characters'
  return null
}

/**
 * A timeout as typed (a Go duration, or a bare number of seconds, as --timeout everywhere), for
 * timeout_seconds: whole seconds from 1 to a day. Problems name no field (callers do).
 */
export function parseTimeout(text: string): { ok: true; value: number } | { ok: false; problem: string } {
  const d = parseTimeoutText(text)
  if (!d.ok) return d
  const ns = d.ns
  if (ns % SECOND !== 0n || ns < SECOND || ns > BigInt(MAX_TIMEOUT_SECONDS) * SECOND) {
    return {
      ok: false,
      problem: `must be whole seconds from 1 to ${MAX_TIMEOUT_SECONDS} (1s to 24h), not ${JSON.stringify(text)}`,
    }
  }
  return { ok: true, value: Number(ns / SECOND) }
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** env_allow as typed: names separated by commas or blanks; duplicates dropped. */
export function parseEnvAllow(text: string): { ok: true; value: string[] } | { ok: false; problem: string } {
  const names = text.split(/[\s,]+/).filter((s) => s !== '')
  const bad = names.find((n) => !ENV_NAME.test(n))
  if (bad !== undefined) {
    return {
      ok: false,
      problem: `${JSON.stringify(bad)} is not an environment variable name ([A-Za-z_][A-Za-z0-9_]*)`,
    }
  }
  return { ok: true, value: [...new Set(names)] }
}

/** The pack dir for a name: `check_port` → `check-port` (the skill name stays lower_snake). */
export function defaultDir(name: string): string {
  return name.replaceAll('_', '-')
}
