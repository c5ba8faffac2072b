/**
 * The capability declaration the manager stores for an installed pack (`CapabilitiesJSON`,
 * returned as `capabilities`): buildCapabilityDeclaration over the load result, then
 * `json.Marshal` (marketplace/usecase.go and repo.go, v0.13.4). Keys in the structs' order,
 * `omitempty` fields left out when empty, nil slices as `null`, strings escaped as Marshal does
 * (HTML characters included).
 *
 * Not reproduced: `metadata.ongrid.edge_capabilities` (free-form YAML values kept as
 * `[]map[string]any`): a skill that declares the key at all gives `unsupported` instead.
 */
import { appendJSONString } from '../go/encoding/json/encode.js'
import type { GoString } from '../go/gostring.js'
import { type Decoded, decodedField } from '../native/fields.js'

/** One loaded skill, in load order: its decoded chatruntime.Skill fields (commands have none). */
export interface CapabilitySkill {
  name: GoString
  fields: Map<string, Decoded> | null
}

export type CapabilityJSON = { ok: true; json: GoString } | { ok: false; unsupported: string }

const str = (s: GoString) => appendJSONString(s, true, true)

/** A []string as Marshal writes it: `null` when nil. */
const strs = (list: GoString[] | null) => (list === null ? 'null' : `[${list.map(str).join(',')}]`)

/** The strings of a decoded []string, null when nil or empty (`append([]string(nil), …)`). */
function stringList(d: Decoded | undefined): GoString[] | null {
  if (d?.k !== 'list') return null
  const out = d.items.flatMap((i) => (i.k === 'string' ? [i.value] : []))
  return out.length === 0 ? null : out
}

function stringOf(d: Decoded | undefined): GoString {
  return d?.k === 'string' ? d.value : ''
}

/** Go's sort.Strings over byte strings: code-unit order is byte order. */
function sorted(set: Set<GoString>): GoString[] | null {
  if (set.size === 0) return null
  return [...set].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

interface Slot {
  slot: GoString
  label: GoString
  fields: GoString[] | null
}

const slotJSON = (c: Slot) =>
  `{"slot":${str(c.slot)},"label":${str(c.label)}${c.fields ? `,"fields":${strs(c.fields)}` : ''}}`

/** buildCapabilityDeclaration(packID, version, res) marshalled. */
export function capabilityDeclarationJSON(
  packID: GoString,
  version: GoString,
  skills: CapabilitySkill[],
  agentCount: number,
): CapabilityJSON {
  const classSet = new Set<GoString>()
  const binSet = new Set<GoString>()
  const cfgSet = new Set<GoString>()
  const credSeen = new Set<GoString>()
  const summarySlots: Slot[] = []
  const records: string[] = []
  for (const sk of skills) {
    const f = sk.fields
    if (decodedField(f, 'metadata', 'ongrid', 'edge_capabilities') !== undefined) {
      return { ok: false, unsupported: 'metadata.ongrid.edge_capabilities' }
    }
    const creds: Slot[] = []
    const credList = decodedField(f, 'metadata', 'requires', 'credentials')
    for (const c of credList?.k === 'list' ? credList.items : []) {
      if (c.k !== 'fields') continue
      const slot = stringOf(c.fields.get('slot'))
      if (slot === '') continue
      const rec = { slot, label: stringOf(c.fields.get('label')), fields: stringList(c.fields.get('fields')) }
      creds.push(rec)
      if (!credSeen.has(slot)) {
        credSeen.add(slot)
        summarySlots.push(rec)
      }
    }
    const bins = stringList(decodedField(f, 'metadata', 'requires', 'bins'))
    const config = stringList(decodedField(f, 'metadata', 'requires', 'config'))
    const scope = stringOf(decodedField(f, 'metadata', 'ongrid', 'scope'))
    const classes = new Set<GoString>()
    const tools = decodedField(f, 'tools')
    for (const t of tools?.k === 'list' ? tools.items : []) {
      const cls = (t.k === 'fields' ? stringOf(t.fields.get('class')) : '') || 'read'
      classes.add(cls)
      classSet.add(cls)
    }
    for (const b of bins ?? []) binSet.add(b)
    for (const c of config ?? []) cfgSet.add(c)
    let requires = ''
    if (bins) requires += `,"bins":${strs(bins)}`
    if (config) requires += `,"config":${strs(config)}`
    if (creds.length > 0) requires += `,"credentials":[${creds.map(slotJSON).join(',')}]`
    records.push(
      `{"name":${str(sk.name)},"scope":${str(scope === '' ? 'manager' : scope)},` +
        `"requires":{${requires.slice(1)}},"tool_classes":${strs(sorted(classes))}}`,
    )
  }
  let summary = ''
  const tc = sorted(classSet)
  const bins = sorted(binSet)
  const cfg = sorted(cfgSet)
  if (tc) summary += `,"tool_classes":${strs(tc)}`
  if (bins) summary += `,"bins":${strs(bins)}`
  if (cfg) summary += `,"config_keys":${strs(cfg)}`
  if (summarySlots.length > 0) summary += `,"credential_slots":[${summarySlots.map(slotJSON).join(',')}]`
  const json =
    `{"pack_id":${str(packID)},"version":${str(version)},` +
    `"skills":${records.length === 0 ? 'null' : `[${records.join(',')}]`},` +
    `"agent_count":${agentCount},"summary":{${summary.slice(1)}}}`
  return { ok: true, json }
}
