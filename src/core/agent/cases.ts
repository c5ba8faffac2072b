/**
 * Eval case files: `{"cases":[{"name","prompt","expect":{"tool": NAME | null, "args": {…}},
 * "tool_results": {"TOOL": RESULT}}]}`. A pack's own is `tests/evals.json` (which `test` leaves
 * alone); `--cases FILE` names one for every pack.
 */

import { readFileBounded } from '../read-bounded.js'

/** Where a pack keeps its eval cases, relative to the pack dir. */
export const EVALS_FILE = 'tests/evals.json'

/** The most a case file may hold. */
export const MAX_EVALS_FILE = 16 * 1024 * 1024

export interface EvalCase {
  name: string
  prompt: string
  expect: { tool: string | null; args?: Record<string, unknown> }
  /** Canned results of builtin tools, by tool name: each sent as the tool's result (JSON). */
  toolResults: Record<string, unknown>
}

export class CaseFileError extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Reads and checks a case file; a problem is one CaseFileError naming the file and the place. */
export function loadEvalCases(file: string): EvalCase[] {
  let text: string
  try {
    text = readFileBounded(file, MAX_EVALS_FILE, { regularOnly: true }).toString('utf8')
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'no such file' : code !== undefined ? code : (e as Error).message
    throw new CaseFileError(`${file}: ${why}`)
  }
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch (e) {
    throw new CaseFileError(`${file}: not JSON: ${(e as Error).message}`)
  }
  return parseEvalCases(doc, file)
}

export function parseEvalCases(doc: unknown, file: string): EvalCase[] {
  const bad = (where: string, what: string) => new CaseFileError(`${file}: ${where}: ${what}`)
  if (!isObject(doc) || !Array.isArray(doc.cases)) throw bad('/', 'expected {"cases": [...]}')
  const names = new Set<string>()
  return doc.cases.map((c, i) => {
    const at = `/cases/${i}`
    if (!isObject(c)) throw bad(at, 'a case is an object')
    for (const k of Object.keys(c))
      if (!['name', 'prompt', 'expect', 'tool_results'].includes(k)) throw bad(`${at}/${k}`, 'unknown key')
    if (typeof c.name !== 'string' || c.name === '') throw bad(`${at}/name`, 'a non-empty string')
    if (names.has(c.name)) throw bad(`${at}/name`, `${JSON.stringify(c.name)} names another case too`)
    names.add(c.name)
    if (typeof c.prompt !== 'string' || c.prompt === '') throw bad(`${at}/prompt`, 'a non-empty string')
    if (!isObject(c.expect)) throw bad(`${at}/expect`, 'an object: {"tool": NAME or null, "args": {...}}')
    for (const k of Object.keys(c.expect))
      if (k !== 'tool' && k !== 'args') throw bad(`${at}/expect/${k}`, 'unknown key')
    const tool = c.expect.tool
    if (tool !== null && (typeof tool !== 'string' || tool === ''))
      throw bad(`${at}/expect/tool`, 'a tool name, or null for no call')
    const args = c.expect.args
    if (args !== undefined && !isObject(args))
      throw bad(`${at}/expect/args`, "an object (a subset of the call's arguments)")
    if (args !== undefined && tool === null) throw bad(`${at}/expect/args`, 'args with "tool": null')
    const results = c.tool_results ?? {}
    if (!isObject(results)) throw bad(`${at}/tool_results`, 'an object: {"TOOL": RESULT}')
    return {
      name: c.name,
      prompt: c.prompt,
      expect: args === undefined ? { tool } : { tool, args },
      toolResults: results,
    }
  })
}
