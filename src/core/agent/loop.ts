/**
 * The legacy agent kernel's loop (internal/manager/biz/aiops/agent/agent.go runInternal,
 * v0.13.4), with the wire and the tools supplied by the caller:
 *
 * - up to 30 requests; a reply without tool calls ends the turn; after the last one the agent's
 *   own apology is the answer;
 * - after each reply: the assistant message as client.go fromOpenAIMessage keeps it (role,
 *   content, name, tool_call_id, tool_calls with empty arguments as `{}`; reasoning_content and
 *   refusal dropped), then one tool message per call, in order, with the payload
 *   toolResultPayload builds, whole (truncateJSON cuts only the UI event);
 * - the checks before a call, in the agent's order: web_search while the turn does not enable it,
 *   the legacy kernel's mutating names, then the registry (an unknown name is `not found`);
 * - a pack's call goes through the bridge (tools/skill_bridge.go newSkillExecutor): the
 *   arguments decoded into map[string]json.RawMessage, `edge_id`/`device_id` dropped, marshalled
 *   again, run by the executor, answered `{"error":…,"result":…}`;
 * - client.go's one retry without temperature when a model refuses sampling params.
 */

import { UnmarshalTypeError } from '../go/encoding/json/decode.js'
import { checkValid } from '../go/encoding/json/scanner.js'
import { fromText, type GoString } from '../go/gostring.js'
import { quote } from '../go/strconv/quote.js'
import { parseTree } from '../json-tree.js'
import { marshalString } from '../schema/go-any.js'
import {
  compactJSON,
  MAX_ITERATIONS,
  type Message,
  type RegistryEntry,
  requestBody,
  TOOL_WEB_SEARCH,
  type ToolCall,
  temperatureFor,
} from './request.js'

/** agent.go legacyKernelMutatingTools. */
export const MUTATING_TOOLS: readonly string[] = ['host_restart_service', 'capture_pcap']

/** The agent's refusal of web_search on a turn that does not enable it. */
export const WEB_SEARCH_DISABLED: GoString = fromText(
  'agent: web_search disabled — toggle the globe icon in the chat input to enable',
)

/** The agent's refusal of a mutating tool in the legacy kernel. */
export function mutatingRefusal(name: GoString): GoString {
  return `agent: tool ${quote(name)} is mutating ${fromText('—')} not supported in legacy kernel; set ONGRID_AGENT_KERNEL=graph (SOP gating lives in the new graph runtime)`
}

/** registry.go Invoke for a name it does not hold (errs.ErrNotFound wrapped). */
export function unknownToolText(name: GoString): GoString {
  return `not found: tool ${quote(name)}`
}

/** What eval answers for a builtin tool the case gives no canned result for (not a manager text). */
export function noCannedResultText(name: GoString): GoString {
  return `eval: no canned result for builtin tool ${quote(name)} in this case (give one in its tool_results)`
}

/** agent.go's answer when the iterations run out (the %d is MaxIterations). */
export function apologyText(iterations: number): string {
  return `我尝试了 ${iterations} 轮工具调用但还没拿到结论 — 看起来模型在重复同一个失败的调用。常见原因：\n• 设备 / 告警 ID 错误（用 @ 搜索更稳）\n• 工具不可用（检查 frontier / Prom / Loki 集成）\n• 问题超出当前工具集的覆盖\n\n请把请求换个方式再问一次，或直接看上面的工具调用结果定位原因。`
}

/** toolResultPayload for an error: `{"error": err.Error()}`. */
export function errorPayload(text: GoString): GoString {
  return `{"error":${marshalString(text)}}`
}

/** client.go isSamplingParamError, on the error's text. */
export function isSamplingParamError(message: string): boolean {
  const m = message.toLowerCase()
  if (!m.includes('temperature') && !m.includes('top_p') && !m.includes('sampling')) return false
  return [
    'fixed at 1',
    'only 1 is allowed',
    'beta-limitations',
    'only the default',
    'does not support',
    'unsupported value',
    'unsupported_value',
  ].some((s) => m.includes(s))
}

/**
 * The bridge's decoding of a call's arguments (`json.Unmarshal` into map[string]json.RawMessage):
 * the params it marshals for the skill (keys sorted, values compacted), or its error text.
 */
export function bridgeParams(
  key: GoString,
  args: GoString,
): { ok: true; params: GoString } | { ok: false; error: GoString } {
  const fail = (err: GoString) => ({ ok: false as const, error: `skill ${quote(key)}: decode args: ${err}` })
  if (args.length === 0) return { ok: true, params: '{}' }
  const bad = checkValid(args)
  if (bad !== null) return fail(bad.error())
  const tree = parseTree(args)
  if (tree.kind === 'null') return { ok: true, params: '{}' }
  if (tree.kind !== 'object') {
    const kind = tree.kind === 'true' || tree.kind === 'false' ? 'bool' : tree.kind
    return fail(new UnmarshalTypeError(kind, 'map[string]json.RawMessage', tree.end, '', '').error())
  }
  const members = new Map<GoString, GoString>()
  for (const m of tree.members) members.set(m.key, compactJSON(args.slice(m.value.start, m.value.end)))
  members.delete('edge_id')
  members.delete('device_id')
  const keys = [...members.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return { ok: true, params: `{${keys.map((k) => `${marshalString(k)}:${members.get(k)}`).join(',')}}` }
}

/** The bridge's payload for what the executor returned (ExecuteOutput marshalled as a map: keys sorted). */
export function bridgePayload(r: { ok: boolean; stdout: GoString; error: GoString | null }): GoString {
  if (r.ok) return `{"error":"","result":${compactJSON(r.stdout)}}`
  return `{"error":${marshalString(r.error ?? '')},"result":null}`
}

/** One reply of the model, as the client decodes it. */
export interface Reply {
  role: GoString
  content: GoString
  name: GoString
  toolCallId: GoString
  toolCalls: ToolCall[]
  usage: { prompt: number; completion: number; total: number }
}

export type ChatOutcome =
  | { kind: 'reply'; reply: Reply }
  | { kind: 'error'; message: string; status?: number }

/** How a call was answered. */
export type CallKind = 'pack' | 'builtin' | 'unknown' | 'refused'

export interface CallRecord {
  id: GoString
  name: GoString
  /** The arguments as the model sent them (`{}` when it sent none). */
  args: GoString
  kind: CallKind
  /** The tool message's content, whole. */
  payload: GoString
  /** The params the pack's entry got on stdin (pack calls whose arguments decoded). */
  params?: GoString
}

export interface LoopDeps {
  chat(body: GoString): Promise<ChatOutcome>
  /** Runs a pack's entry with these params; the bridge's payload comes from what it returns. */
  runPack(
    entry: RegistryEntry,
    params: GoString,
  ): Promise<{ ok: boolean; stdout: GoString; error: GoString | null }>
  /** A builtin's ResultJSON, or null when the case gives none. */
  builtin(name: GoString, args: GoString): GoString | null
  /** The tools in the order of the next request (the manager's map order is random). */
  order(tools: readonly RegistryEntry[]): RegistryEntry[]
}

export interface LoopInput {
  model: string
  prompt: GoString
  registry: ReadonlyMap<GoString, RegistryEntry>
  offered: readonly RegistryEntry[]
  webSearch: boolean
  maxIterations?: number
  /** Shared across the runs of one model: set once it refused sampling params. */
  sampling: { refuses: boolean }
}

export interface LoopResult {
  calls: CallRecord[]
  /** The final answer (the agent's apology when the iterations ran out). */
  answer: GoString
  iterations: number
  capped: boolean
  usage: { prompt: number; completion: number; total: number }
  /** Every request body sent, in order. */
  requests: GoString[]
  /** The endpoint's error that ended the turn (the manager's turn fails there too). */
  error: string | null
}

/** One turn of the agent for a new session's first message. */
export async function runTurn(input: LoopInput, deps: LoopDeps): Promise<LoopResult> {
  const max = input.maxIterations ?? MAX_ITERATIONS
  const messages: Message[] = [{ role: 'user', content: input.prompt }]
  const calls: CallRecord[] = []
  const requests: GoString[] = []
  const usage = { prompt: 0, completion: 0, total: 0 }
  const result = (
    answer: GoString,
    iterations: number,
    capped: boolean,
    error: string | null,
  ): LoopResult => ({
    calls,
    answer,
    iterations,
    capped,
    usage,
    requests,
    error,
  })
  for (let i = 0; i < max; i++) {
    const tools = deps.order(input.offered)
    const send = async (temperature: number) => {
      const body = requestBody(input.model, messages, tools, temperature)
      requests.push(body)
      return deps.chat(body)
    }
    const temperature = temperatureFor(input.model, input.sampling.refuses)
    let out = await send(temperature)
    if (out.kind === 'error' && temperature !== 0 && isSamplingParamError(out.message)) {
      input.sampling.refuses = true
      out = await send(0)
    }
    if (out.kind === 'error') return result('', i + 1, false, out.message)
    const r = out.reply
    usage.prompt += r.usage.prompt
    usage.completion += r.usage.completion
    usage.total += r.usage.total
    messages.push({
      role: r.role,
      content: r.content,
      name: r.name,
      toolCallId: r.toolCallId,
      toolCalls: r.toolCalls.map((tc) => ({ ...tc, args: tc.args === '' ? '{}' : tc.args })),
    })
    if (r.toolCalls.length === 0) return result(r.content, i + 1, false, null)
    for (const raw of r.toolCalls) {
      const tc = { ...raw, args: raw.args === '' ? '{}' : raw.args }
      const call = await answerCall(tc, input, deps)
      calls.push(call)
      messages.push({ role: 'tool', content: call.payload, toolCallId: tc.id, name: tc.name })
    }
  }
  return result(fromText(apologyText(max)), max, true, null)
}

async function answerCall(tc: ToolCall, input: LoopInput, deps: LoopDeps): Promise<CallRecord> {
  const base = { id: tc.id, name: tc.name, args: tc.args }
  if (tc.name === TOOL_WEB_SEARCH && !input.webSearch)
    return { ...base, kind: 'refused', payload: errorPayload(WEB_SEARCH_DISABLED) }
  if (MUTATING_TOOLS.includes(tc.name))
    return { ...base, kind: 'refused', payload: errorPayload(mutatingRefusal(tc.name)) }
  const entry = input.registry.get(tc.name)
  if (entry === undefined)
    return { ...base, kind: 'unknown', payload: errorPayload(unknownToolText(tc.name)) }
  if (entry.kind === 'builtin') {
    const canned = deps.builtin(tc.name, tc.args)
    return {
      ...base,
      kind: 'builtin',
      payload: canned === null ? errorPayload(noCannedResultText(tc.name)) : canned === '' ? '{}' : canned,
    }
  }
  const decoded = bridgeParams(tc.name, tc.args)
  if (!decoded.ok) return { ...base, kind: 'pack', payload: errorPayload(decoded.error) }
  const r = await deps.runPack(entry, decoded.params)
  return { ...base, kind: 'pack', payload: bridgePayload(r), params: decoded.params }
}
