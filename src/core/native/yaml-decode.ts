/**
 * yaml.v3's decoder (decode.go, v3.0.1) over the node tree of its own parser (core/go/yaml):
 * what chatruntime's `yaml.Unmarshal(frontmatter, &sk)` keeps and which type errors it
 * collects (`line N: cannot unmarshal !!seq into string`, `line N: mapping key "x" already
 * defined at line M`), in the order it finds them.
 */
import { decodeString } from '../go/encoding/base64/base64.js'
import { type GoString, toText } from '../go/gostring.js'
import { quote } from '../go/strconv/quote.js'
import {
  indicatedString,
  Kind,
  type Node,
  nodeShortTag,
  parseFirstDocument,
  YamlError,
} from '../go/yaml/node.js'
import {
  BINARY_TAG,
  MAP_TAG,
  MERGE_TAG,
  NULL_TAG,
  type Resolved,
  resolve,
  SEQ_TAG,
  STR_TAG,
  shortTag,
} from '../go/yaml/resolve.js'
import type { Decoded } from './fields.js'

/** A Go type the decoder fills, as reflect names it in messages. */
export type GoType =
  | { k: 'string'; name: string }
  | { k: 'int'; name: string }
  | { k: 'bool'; name: string }
  | { k: 'slice'; name: string; elem: GoType }
  | { k: 'map'; name: string; elem: GoType /** string when absent */; key?: GoType }
  | { k: 'struct'; name: string; fields: Record<string, GoType> }
  | { k: 'any'; name: string }

const str: GoType = { k: 'string', name: 'string' }
const int: GoType = { k: 'int', name: 'int' }
const strings: GoType = { k: 'slice', name: '[]string', elem: str }
const any: GoType = { k: 'any', name: 'interface {}' }

const activation: GoType = {
  k: 'struct',
  name: 'chatruntime.Activation',
  fields: { mode: str, keywords: strings },
}

/** chatruntime.Skill with its yaml tags (types.go, v0.13.4); `yaml:"-"` fields left out. */
export const SKILL_TYPE: GoType = {
  k: 'struct',
  name: 'chatruntime.Skill',
  fields: {
    name: str,
    version: str,
    description: str,
    when_to_use: str,
    activation,
    config_section: str,
    tools: {
      k: 'slice',
      name: '[]chatruntime.ToolDecl',
      elem: {
        k: 'struct',
        name: 'chatruntime.ToolDecl',
        fields: {
          name: str,
          impl: str,
          class: { k: 'string', name: 'chatruntime.ToolClass' },
          description: str,
          when_to_use: str,
          confirmation: str,
          timeout_seconds: int,
        },
      },
    },
    metadata: {
      k: 'struct',
      name: 'chatruntime.SkillMetadata',
      fields: {
        os: strings,
        requires: {
          k: 'struct',
          name: 'chatruntime.Requires',
          fields: {
            bins: strings,
            config: strings,
            credentials: {
              k: 'slice',
              name: '[]chatruntime.CredentialRequirement',
              elem: {
                k: 'struct',
                name: 'chatruntime.CredentialRequirement',
                fields: {
                  slot: str,
                  label: str,
                  fields: strings,
                  inject: {
                    k: 'struct',
                    name: 'chatruntime.CredentialInject',
                    fields: {
                      env: { k: 'map', name: 'map[string]string', elem: str },
                      files: {
                        k: 'slice',
                        name: '[]chatruntime.CredentialFile',
                        elem: {
                          k: 'struct',
                          name: 'chatruntime.CredentialFile',
                          fields: { path: str, content: str, mode: str },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
        ongrid: {
          k: 'struct',
          name: 'chatruntime.OngridExt',
          fields: {
            scope: str,
            edge_runtime: str,
            edge_capabilities: {
              k: 'slice',
              name: '[]map[string]interface {}',
              elem: { k: 'map', name: 'map[string]interface {}', elem: any },
            },
            activation,
            min_ongrid_version: str,
          },
        },
      },
    },
  },
}

/** `map[string]any`, the second decode (`rawMap`). */
export const RAW_MAP_TYPE: GoType = { k: 'map', name: 'map[string]interface {}', elem: any }

const STRING_MAP: GoType = RAW_MAP_TYPE
const GENERAL_MAP: GoType = { k: 'map', name: 'map[interface {}]interface {}', elem: any, key: any }

export class YamlFailure extends Error {}

/** A Go runtime panic inside yaml.v3 (not an error it returns): the manager's goroutine panics. */
export class GoPanic extends Error {}

/** fmt's %v of a float64: strconv.FormatFloat(f, 'g', -1, 64), %e below 1e-4 and from 1e6 (Go's shortest 'g'). */
function formatFloatG(f: number): string {
  if (Number.isNaN(f)) return 'NaN'
  if (f === Number.POSITIVE_INFINITY) return '+Inf'
  if (f === Number.NEGATIVE_INFINITY) return '-Inf'
  if (f === 0) return Object.is(f, -0) ? '-0' : '0'
  const [mant, e] = Math.abs(f).toExponential().split('e')
  const digits = mant.replace('.', '')
  const exp = Number(e)
  const sign = f < 0 ? '-' : ''
  if (exp < -4 || exp >= 6) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits
    const ae = Math.abs(exp)
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${ae < 10 ? '0' : ''}${ae}`
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`
  if (digits.length <= exp + 1) return `${sign}${digits}${'0'.repeat(exp + 1 - digits.length)}`
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`
}

/** isStringMap: every key's short tag is !!str or !!merge. */
function isStringMap(n: Node): boolean {
  for (let i = 0; i < n.content.length; i += 2) {
    const t = nodeShortTag(n.content[i])
    if (t !== STR_TAG && t !== MERGE_TAG) return false
  }
  return true
}

export interface DecodeOutcome {
  /** What the struct holds (fields never set are absent). */
  value: Decoded | null
  /** yaml.v3's collected type errors, `line N: …` each. */
  terrors: string[]
  /** A failf-style abort (`yaml: …`), when one happened. */
  failure: string | null
  /** A runtime panic in yaml.v3 (`runtime error: …`), when one happened: no error is returned. */
  panic: string | null
}

type Result = { value: Decoded | null; good: boolean }

const YAML11_BOOLS = new Set([
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
  'on',
  'On',
  'ON',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'off',
  'Off',
  'OFF',
])

const ALIAS_RATIO_RANGE_LOW = 400000
const ALIAS_RATIO_RANGE_HIGH = 4000000

function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= ALIAS_RATIO_RANGE_LOW) return 0.99
  if (decodeCount >= ALIAS_RATIO_RANGE_HIGH) return 0.1
  return (
    0.99 - 0.89 * ((decodeCount - ALIAS_RATIO_RANGE_LOW) / (ALIAS_RATIO_RANGE_HIGH - ALIAS_RATIO_RANGE_LOW))
  )
}

function isMerge(n: Node): boolean {
  return (
    n.kind === Kind.Scalar &&
    n.value === '<<' &&
    (n.tag === '' || n.tag === '!' || shortTag(n.tag) === MERGE_TAG)
  )
}

/**
 * A `!!binary` scalar as decode.go's scalar takes it: base64.StdEncoding.DecodeString of the
 * value (a byte string of the decoded bytes), or yaml.v3's failf when that fails.
 */
function binaryText(value: GoString): GoString {
  const d = decodeString(value)
  if (!d.ok) throw new YamlFailure('yaml: !!binary value contains invalid base64 data')
  return d.value.toString('latin1')
}

export class Decoder {
  terrors: string[] = []
  private aliases = new Set<Node>()
  private decodeCount = 0
  private aliasCount = 0
  private aliasDepth = 0
  private mergedFields: Set<string> | null = null

  constructor(private readonly at: (n: Node) => number) {}

  private terror(n: Node, tag: string, out: GoType): void {
    const t = n.tag !== '' ? n.tag : tag
    // yaml.v3 starts from n.Value and only quotes it for other tags: a scalar tagged !!map or
    // !!seq shows its value bare (`!!map---`).
    let value = n.value
    if (t !== SEQ_TAG && t !== MAP_TAG) {
      // value[:7] cuts bytes, which may split a UTF-8 sequence: keep the bytes as they are.
      value = n.value.length > 10 ? ` \`${n.value.slice(0, 7)}...\`` : ` \`${n.value}\``
    }
    this.terrors.push(`line ${n.line}: cannot unmarshal ${shortTag(t)}${value} into ${out.name}`)
  }

  /** d.unmarshal: the decoded value (null when nothing was stored) and whether it was "good". */
  unmarshal(n: Node, out: GoType): Result {
    this.decodeCount++
    if (this.aliasDepth > 0) this.aliasCount++
    if (
      this.aliasCount > 100 &&
      this.decodeCount > 1000 &&
      this.aliasCount / this.decodeCount > allowedAliasRatio(this.decodeCount)
    ) {
      throw new YamlFailure('yaml: document contains excessive aliasing')
    }
    switch (n.kind) {
      case Kind.Document:
        if (n.content.length === 1) return { value: this.unmarshal(n.content[0], out).value, good: true }
        return { value: null, good: false }
      case Kind.Alias:
        return this.alias(n, out)
    }
    switch (n.kind) {
      case Kind.Scalar:
        return this.scalar(n, out)
      case Kind.Mapping:
        return this.mapping(n, out)
      case Kind.Sequence:
        return this.sequence(n, out)
    }
    throw new YamlFailure(`yaml: cannot decode node with unknown kind ${n.kind}`)
  }

  private alias(n: Node, out: GoType): Result {
    if (this.aliases.has(n)) throw new YamlFailure(`yaml: anchor '${n.value}' value contains itself`)
    this.aliases.add(n)
    this.aliasDepth++
    const r = this.unmarshal(n.alias as Node, out)
    this.aliasDepth--
    this.aliases.delete(n)
    return r
  }

  private scalar(n: Node, out: GoType): Result {
    let r: Resolved
    // What `resolved` holds when it is a string: the value, or a !!binary value's decoded bytes.
    let text = n.value
    if (indicatedString(n)) r = { tag: STR_TAG, kind: 'str' }
    else {
      try {
        r = resolve(n.tag, n.value)
      } catch (e) {
        throw new YamlFailure(`yaml: ${(e as Error).message}`)
      }
      if (r.tag === BINARY_TAG) text = binaryText(n.value)
    }
    if (r.kind === 'null') return { value: null, good: false }
    const at = this.at(n)
    switch (out.k) {
      case 'string':
        return { value: { k: 'string', value: text, at }, good: true }
      case 'any':
        return { value: { k: 'other', at }, good: true }
      case 'bool':
        // yaml.v3 also takes YAML 1.1's words when decoding into a bool.
        if (r.kind === 'bool' || (r.kind === 'str' && YAML11_BOOLS.has(text))) {
          return { value: { k: 'other', at }, good: true }
        }
        break
      case 'int': {
        if (r.kind === 'int' && r.value >= -(2n ** 63n) && r.value <= 2n ** 63n - 1n) {
          return { value: { k: 'int', value: r.value, at }, good: true }
        }
        // Go: resolved <= math.MaxInt64 (compared as float64, i.e. 2^63); int64(f) then wraps.
        if (r.kind === 'float' && !Number.isNaN(r.value) && r.value <= 2 ** 63) {
          const t = Math.trunc(r.value)
          const big = Number.isFinite(t) ? BigInt(t) : -(2n ** 63n)
          return { value: { k: 'int', value: big, at }, good: true }
        }
        break
      }
    }
    this.terror(n, r.tag, out)
    return { value: null, good: false }
  }

  private sequence(n: Node, out: GoType): Result {
    if (out.k === 'any') {
      for (const item of n.content) this.unmarshal(item, any)
      return { value: { k: 'other', at: this.at(n) }, good: true }
    }
    if (out.k !== 'slice') {
      this.terror(n, SEQ_TAG, out)
      return { value: null, good: false }
    }
    const items: Decoded[] = []
    for (const item of n.content) {
      const r = this.unmarshal(item, out.elem)
      if (r.good && r.value) items.push(r.value)
    }
    return { value: { k: 'list', items, at: this.at(n) }, good: true }
  }

  private mapping(n: Node, out: GoType): Result {
    const l = n.content.length
    const nerrs = this.terrors.length
    for (let i = 0; i < l; i += 2) {
      const ni = n.content[i]
      for (let j = i + 2; j < l; j += 2) {
        const nj = n.content[j]
        if (ni.kind === nj.kind && ni.value === nj.value) {
          this.terrors.push(
            `line ${nj.line}: mapping key ${quote(nj.value)} already defined at line ${ni.line}`,
          )
        }
      }
    }
    if (this.terrors.length > nerrs) return { value: null, good: false }
    if (out.k === 'struct') return this.mappingStruct(n, out)
    if (out.k !== 'map' && out.k !== 'any') {
      this.terror(n, MAP_TAG, out)
      return { value: null, good: false }
    }
    // Into an interface{}, yaml.v3 makes a map[string]interface{} when every key is a string,
    // else a map[interface{}]interface{}, and goes on with that map (its merges too).
    const map = (out.k === 'any' ? (isStringMap(n) ? STRING_MAP : GENERAL_MAP) : out) as Extract<
      GoType,
      { k: 'map' }
    >
    out = map
    const keyType: GoType = map.key ?? str
    const elem = map.elem
    const merged = this.mergedFields
    this.mergedFields = null
    let mergeNode: Node | null = null
    for (let i = 0; i < l; i += 2) {
      if (isMerge(n.content[i])) {
        mergeNode = n.content[i + 1]
        continue
      }
      const key = n.content[i]
      const k = this.unmarshal(key, keyType)
      if (!k.good) continue
      const hash = keyType.k === 'any' ? this.unhashable(key) : null
      if (merged) {
        if (hash !== null) throw new GoPanic(`runtime error: hash of unhashable type ${hash}`)
        const ks =
          keyType.k === 'any' ? this.ifaceString(key) : k.value?.k === 'string' ? k.value.value : null
        if (ks !== null) {
          if (merged.has(ks)) continue
          merged.add(ks)
        }
      }
      if (hash !== null) throw new YamlFailure(`yaml: invalid map key: ${this.sharpV(key)}`)
      this.unmarshal(n.content[i + 1], elem)
    }
    this.mergedFields = merged
    if (mergeNode) this.merge(n, mergeNode, out)
    return { value: { k: 'other', at: this.at(n) }, good: true }
  }

  private mappingStruct(n: Node, out: Extract<GoType, { k: 'struct' }>, into?: Map<string, Decoded>): Result {
    const fields = into ?? new Map<string, Decoded>()
    const merged = this.mergedFields
    this.mergedFields = null
    let mergeNode: Node | null = null
    const done = new Set<string>()
    for (let i = 0; i < n.content.length; i += 2) {
      const ni = n.content[i]
      if (isMerge(ni)) {
        mergeNode = n.content[i + 1]
        continue
      }
      const k = this.unmarshal(ni, str)
      if (!k.good) continue
      const name = k.value?.k === 'string' ? k.value.value : ''
      if (merged) {
        if (merged.has(name)) continue
        merged.add(name)
      }
      const ft = Object.hasOwn(out.fields, name) ? out.fields[name] : undefined
      if (ft === undefined) continue
      if (done.has(name)) {
        this.terrors.push(`line ${ni.line}: field ${name} already set in type ${out.name}`)
        continue
      }
      done.add(name)
      const r = this.unmarshal(n.content[i + 1], ft)
      if (r.value) fields.set(name, r.value)
    }
    this.mergedFields = merged
    if (mergeNode) this.merge(n, mergeNode, out, fields)
    return { value: { k: 'fields', fields, at: this.at(n) }, good: true }
  }

  private merge(parent: Node, mergeNode: Node, out: GoType, fields?: Map<string, Decoded>): void {
    const saved = this.mergedFields
    if (saved === null) {
      // Go makes the set before decoding the parent's keys (a key that is itself a map sees it).
      const keys = new Set<string>()
      this.mergedFields = keys
      for (let i = 0; i < parent.content.length; i += 2) {
        const k = parent.content[i]
        if (!this.unmarshal(k, any).good) continue
        const hash = this.unhashable(k)
        if (hash !== null) throw new GoPanic(`runtime error: hash of unhashable type ${hash}`)
        const ks = this.ifaceString(k)
        if (ks !== null) keys.add(ks)
      }
    }
    const fail = (): never => {
      throw new YamlFailure('yaml: map merge requires map or sequence of maps as the value')
    }
    const one = (m: Node) => {
      if (out.k === 'struct') {
        const target = m.kind === Kind.Alias ? this.follow(m) : m
        if (target === null) return
        this.mappingStructVia(m, target, out, fields as Map<string, Decoded>)
      } else this.unmarshal(m, out)
    }
    switch (mergeNode.kind) {
      case Kind.Mapping:
        one(mergeNode)
        break
      case Kind.Alias:
        if (mergeNode.alias !== null && mergeNode.alias.kind !== Kind.Mapping) fail()
        one(mergeNode)
        break
      case Kind.Sequence:
        for (const ni of mergeNode.content) {
          if (ni.kind === Kind.Alias) {
            if (ni.alias !== null && ni.alias.kind !== Kind.Mapping) fail()
          } else if (ni.kind !== Kind.Mapping) fail()
          one(ni)
        }
        break
      default:
        fail()
    }
    this.mergedFields = saved
  }

  /** The string a key holds once decoded into interface{} (null when it is not a string). */
  private ifaceString(n: Node): string | null {
    const t = this.follow(n)
    if (t === null || t.kind !== Kind.Scalar) return null
    if (indicatedString(t)) return t.value
    try {
      const r = resolve(t.tag, t.value)
      if (r.tag === BINARY_TAG) return binaryText(t.value)
      return r.kind === 'str' || r.kind === 'merge' ? t.value : null
    } catch {
      return null
    }
  }

  /** The Go type of a collection decoded into interface{} (unhashable as a map key), else null. */
  private unhashable(n: Node): string | null {
    const t = this.follow(n)
    if (t === null || nodeShortTag(t) === NULL_TAG) return null
    if (t.kind === Kind.Sequence) return '[]interface {}'
    if (t.kind === Kind.Mapping)
      return isStringMap(t) ? 'map[string]interface {}' : 'map[interface {}]interface {}'
    return null
  }

  /** fmt's %#v of what a node decodes to in an interface{} (the kinds a key can hold). */
  private sharpV(n: Node, inner = false): string {
    const t = this.follow(n)
    if (t === null) return inner ? 'interface {}(nil)' : '<nil>'
    if (t.kind === Kind.Sequence)
      return `[]interface {}{${t.content.map((c) => this.sharpV(c, true)).join(', ')}}`
    if (t.kind === Kind.Mapping) {
      const type = isStringMap(t) ? 'map[string]interface {}' : 'map[interface {}]interface {}'
      const pairs: [string, string][] = []
      for (let i = 0; i + 1 < t.content.length; i += 2) {
        pairs.push([this.sharpV(t.content[i], true), this.sharpV(t.content[i + 1], true)])
      }
      pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      return `${type}{${pairs.map(([k, v]) => `${k}:${v}`).join(', ')}}`
    }
    if (indicatedString(t)) return quote(t.value)
    const r = resolve(t.tag, t.value)
    switch (r.kind) {
      case 'null':
        return inner ? 'interface {}(nil)' : '<nil>'
      case 'bool':
        return t.value.toLowerCase() === 'true' ? 'true' : 'false'
      case 'int':
        return r.value.toString()
      case 'float':
        return formatFloatG(r.value)
      default:
        return quote(r.tag === BINARY_TAG ? binaryText(t.value) : t.value)
    }
  }

  private follow(n: Node): Node | null {
    let t: Node | null = n
    while (t !== null && t.kind === Kind.Alias) t = t.alias
    return t
  }

  /** d.unmarshal(m, out) for a struct `out` already holding `fields`, through m's aliases. */
  private mappingStructVia(
    m: Node,
    target: Node,
    out: Extract<GoType, { k: 'struct' }>,
    fields: Map<string, Decoded>,
  ): void {
    if (m.kind === Kind.Alias) {
      if (this.aliases.has(m)) throw new YamlFailure(`yaml: anchor '${m.value}' value contains itself`)
      this.aliases.add(m)
      this.aliasDepth++
      this.decodeCount++
      this.aliasCount++
      try {
        this.mappingStructVia(m.alias as Node, target, out, fields)
      } finally {
        this.aliasDepth--
        this.aliases.delete(m)
      }
      return
    }
    this.decodeCount++
    if (this.aliasDepth > 0) this.aliasCount++
    const nerrs = this.terrors.length
    for (let i = 0; i < target.content.length; i += 2) {
      const ni = target.content[i]
      for (let j = i + 2; j < target.content.length; j += 2) {
        const nj = target.content[j]
        if (ni.kind === nj.kind && ni.value === nj.value) {
          this.terrors.push(
            `line ${nj.line}: mapping key ${quote(nj.value)} already defined at line ${ni.line}`,
          )
        }
      }
    }
    if (this.terrors.length > nerrs) return
    this.mappingStruct(target, out, fields)
  }
}

/** Decodes a parsed document (yaml.Unmarshal's node) into `type`. */
export function decodeNode(root: Node | null, type: GoType, at: (n: Node) => number): DecodeOutcome {
  if (root === null) return { value: null, terrors: [], failure: null, panic: null }
  const d = new Decoder(at)
  try {
    const r = d.unmarshal(root, type)
    return { value: r.value, terrors: d.terrors, failure: null, panic: null }
  } catch (e) {
    if (e instanceof YamlFailure) return { value: null, terrors: [], failure: e.message, panic: null }
    if (e instanceof GoPanic) return { value: null, terrors: [], failure: null, panic: e.message }
    throw e
  }
}

export interface FrontmatterYaml {
  /** yaml.v3's syntax failure (`yaml: line N: …`), with its problem mark when it has one. */
  syntax: YamlError | null
  /** The parsed first document (null: empty, or a syntax failure). */
  root: Node | null
  /** A node's offset in toText(frontmatter). */
  at: (n: Node) => number
  /** The offset in toText(frontmatter) of a mark's character index. */
  offsetOf: (index: number) => number
}

/** yaml.Unmarshal's parse of a frontmatter (a byte string), before any decoding. */
export function parseFrontmatterYaml(fm: GoString): FrontmatterYaml {
  const text = toText(fm)
  // Mark indexes count characters after a leading BOM; offsets count UTF-16 units in `text`.
  const bom = text.startsWith('\ufeff') ? 1 : 0
  let table: number[] | null = null
  const offsetOf = (index: number): number => {
    if (table === null) {
      table = []
      for (let i = 0; i < text.length; i++) {
        table.push(i)
        const c = text.charCodeAt(i)
        if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) i++
      }
      table.push(text.length)
    }
    const k = index + bom
    return k < table.length ? table[k] : text.length
  }
  const at = (n: Node) => offsetOf(n.index)
  try {
    return { syntax: null, root: parseFirstDocument(fm), at, offsetOf }
  } catch (e) {
    if (e instanceof YamlError) return { syntax: e, root: null, at, offsetOf }
    throw e
  }
}
