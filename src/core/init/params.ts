import { didYouMean, meanHint } from '../suggest.js'

/** The JSON Schema types a param may have. */
export const PARAM_TYPES = ['string', 'integer', 'number', 'boolean', 'array', 'object'] as const
export type ParamType = (typeof PARAM_TYPES)[number]

/** One param of the skill, as `--param` or the wizard gives it. */
export interface Param {
  name: string
  type: ParamType
  /** What the LLM reads about it; '' when none was given. */
  description: string
  required: boolean
}

/**
 * A param name: an identifier, so that it is a property name every caller can use (an LLM's
 * tool call, a Go struct's json tag) and is safe wherever the sample entry names it.
 */
export const PARAM_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/
export const MAX_PARAMS = 64

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string; hint?: string }

export function paramNameProblem(name: string): string | null {
  if (name === '') return 'a param needs a name'
  if (!PARAM_NAME.test(name)) {
    return `param name ${JSON.stringify(name)} must be an identifier: a letter or _, then letters, digits or _ (at most 64)`
  }
  return null
}

export function paramTypeProblem(type: string): { problem: string; hint?: string } | null {
  if ((PARAM_TYPES as readonly string[]).includes(type)) return null
  return {
    problem: `param type ${JSON.stringify(type)} is not one of ${PARAM_TYPES.join(', ')}`,
    hint: meanHint(didYouMean(type, PARAM_TYPES)),
  }
}

export function paramDescriptionProblem(description: string): string | null {
  return /[\x00-\x1f\x7f]/.test(description)
    ? 'a param description must be one line of text, without control characters'
    : null
}

/** `NAME:TYPE[:DESCRIPTION]` (the description may hold colons); not required until --required says so. */
export function parseParamSpec(spec: string): Checked<Param> {
  const first = spec.indexOf(':')
  if (first < 0) {
    return {
      ok: false,
      problem: `${JSON.stringify(spec)} is not NAME:TYPE[:DESCRIPTION]`,
      hint: `e.g. --param 'path:string:Root path' (types: ${PARAM_TYPES.join(', ')})`,
    }
  }
  const name = spec.slice(0, first).trim()
  const rest = spec.slice(first + 1)
  const second = rest.indexOf(':')
  const type = (second < 0 ? rest : rest.slice(0, second)).trim()
  const description = second < 0 ? '' : rest.slice(second + 1).trim()
  const n = paramNameProblem(name)
  if (n) return { ok: false, problem: n }
  const t = paramTypeProblem(type)
  if (t) return { ok: false, ...t }
  const d = paramDescriptionProblem(description)
  if (d) return { ok: false, problem: d }
  return { ok: true, value: { name, type: type as ParamType, description, required: false } }
}

/** The params of `--param` specs, with `--required` names (each `NAME` or `A,B`) marked. */
export function parseParams(specs: string[], required: string[]): Checked<Param[]> {
  const params: Param[] = []
  for (const spec of specs) {
    const p = parseParamSpec(spec)
    if (!p.ok) return p
    if (params.some((q) => q.name === p.value.name)) {
      return { ok: false, problem: `param ${JSON.stringify(p.value.name)} is given twice` }
    }
    params.push(p.value)
  }
  if (params.length > MAX_PARAMS) return { ok: false, problem: `at most ${MAX_PARAMS} params` }
  for (const name of required.flatMap((r) => r.split(',')).map((s) => s.trim())) {
    if (name === '') continue
    const p = params.find((q) => q.name === name)
    if (!p) {
      const names = params.map((q) => q.name)
      return {
        ok: false,
        problem:
          params.length === 0
            ? `--required ${name}: no --param names it`
            : `--required ${name}: not a param (the params: ${names.join(', ')})`,
        hint: meanHint(didYouMean(name, names)),
      }
    }
    p.required = true
  }
  return { ok: true, value: params }
}

/** The params schema for skill.json (draft 2020-12, as the templates' own). */
export function paramsSchema(params: Param[]): Record<string, unknown> {
  // Built as entries: assigning `properties.__proto__` would set a prototype, not name a param.
  const properties = Object.fromEntries(
    params.map((p) => [
      p.name,
      p.description === '' ? { type: p.type } : { type: p.type, description: p.description },
    ]),
  )
  const required = params.filter((p) => p.required).map((p) => p.name)
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  }
}

const SAMPLE: Record<ParamType, unknown> = {
  string: 'example',
  integer: 1,
  number: 0.5,
  boolean: true,
  array: [],
  object: {},
}

/** Args that satisfy the schema: every param, with a plain value of its type. */
export function sampleArgs(params: Param[]): Record<string, unknown> {
  return Object.fromEntries(params.map((p) => [p.name, structuredClone(SAMPLE[p.type])]))
}

/** The words the sample entries use when a value has the wrong type. */
export const TYPE_WORDS: Record<ParamType, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
}

/**
 * The pack's own test cases: the sample args answer; and, as the sample entries check args,
 * an unknown field, a missing required param and a value of the wrong type are refused with the
 * manager's error text.
 */
export function paramsCases(name: string, params: Param[]): unknown[] {
  const args = sampleArgs(params)
  const refused = (why: string) => `subprocess skill ${name}: exit 1 (stderr: ${name}: invalid args: ${why})`
  const cases: unknown[] = [{ name: 'answers the sample args', args, expect: { ok: true, result: { args } } }]
  let unknown = 'not_a_param'
  while (params.some((p) => p.name === unknown)) unknown += '_'
  cases.push({
    name: 'refuses an unknown field',
    args: { ...args, [unknown]: 1 },
    expect: { error: refused(`${unknown}: unknown field`) },
  })
  const req = params.find((p) => p.required)
  if (req) {
    const { [req.name]: _dropped, ...rest } = args
    cases.push({
      name: `refuses args without ${req.name}`,
      args: rest,
      expect: { error: refused(`${req.name}: required`) },
    })
  }
  const first = params[0]
  if (first) {
    cases.push({
      name: `refuses ${first.name} of the wrong type`,
      args: { ...args, [first.name]: first.type === 'string' ? 1 : 'text' },
      expect: { error: refused(`${first.name}: must be ${TYPE_WORDS[first.type]}`) },
    })
  }
  return cases
}

/** Placeholders the sample entries hold: names (identifiers) and types only, never user text. */
export function paramsCodeValues(params: Param[]): Record<string, string> {
  return {
    params_json: JSON.stringify(Object.fromEntries(params.map((p) => [p.name, p.type]))),
    names_json: JSON.stringify(params.map((p) => p.name)),
    required_json: JSON.stringify(params.filter((p) => p.required).map((p) => p.name)),
    params_bash: params.map((p) => `[${p.name}]=${p.type}`).join(' '),
    names_bash: params.map((p) => p.name).join(' '),
    required_bash: params
      .filter((p) => p.required)
      .map((p) => p.name)
      .join(' '),
    params_names: params.map((p) => p.name).join(', '),
  }
}

/** The README's table of the params (Markdown; descriptions are text, kept on one line). */
export function paramsTable(params: Param[]): string {
  const cell = (s: string) => s.replaceAll('|', '\\|')
  const rows = params.map(
    (p) =>
      `| \`${p.name}\` | ${p.type}${p.required ? ', required' : ''} | ${cell(p.description) || '(describe it in skill.json)'} |`,
  )
  return ['| field | type | |', '|---|---|---|', ...rows].join('\n')
}
