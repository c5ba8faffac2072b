/**
 * yaml.v3's decoder (decode.go, v3.0.1) applied to a document parsed by the `yaml` package:
 * what chatruntime's `yaml.Unmarshal(frontmatter, &sk)` keeps and which type errors it
 * collects (`line N: cannot unmarshal !!seq into string`, `line N: mapping key "x" already
 * defined at line M`), in the order it finds them. Syntax errors are the parser's business
 * and are not reproduced here (see skill-md.ts).
 */
import {
  type Alias,
  type Document,
  isAlias,
  isMap,
  isSeq,
  type Pair,
  type Scalar,
  type YAMLMap,
  type YAMLSeq,
  type Node as YNode,
} from 'yaml'
import { fromText } from '../go/gostring.js'
import { quote } from '../go/strconv/quote.js'
import type { Decoded } from './fields.js'
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
} from './resolve.js'

/** A Go type the decoder fills, as reflect names it in messages. */
export type GoType =
  | { k: 'string'; name: string }
  | { k: 'int'; name: string }
  | { k: 'slice'; name: string; elem: GoType }
  | { k: 'map'; name: string; elem: GoType }
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

export class YamlFailure extends Error {}

export interface DecodeOutcome {
  /** What the struct holds (fields never set are absent). */
  value: Decoded | null
  /** yaml.v3's collected type errors, `line N: …` each. */
  terrors: string[]
  /** A failf-style abort (`yaml: …`), when one happened. */
  failure: string | null
}

type YNodeAny = YNode | Pair | null | undefined

interface NodeView {
  kind: 'scalar' | 'map' | 'seq'
  /** n.Tag as yaml.v3 stores it (explicit short tag, !!str for quoted, resolved for plain). */
  tag: string
  /** n.Value (scalars). */
  value: string
  /** Offset of the node's first character. */
  at: number
  node: YNode | null
  /** Explicit tag ('' when none). */
  explicit: string
  /** Quoted or block scalar. */
  quoted: boolean
}

export class Decoder {
  terrors: string[] = []
  private aliasStack = new Set<unknown>()

  constructor(
    private readonly doc: Document,
    private readonly lineOf: (offset: number) => number,
  ) {}

  view(n: YNodeAny): NodeView | null {
    let node = n as YNode | null | undefined
    if (isAlias(node)) {
      const target = node.resolve(this.doc)
      if (!target) return null
      node = target as YNode
    }
    if (!node)
      return { kind: 'scalar', tag: NULL_TAG, value: '', at: -1, node: null, explicit: '', quoted: false }
    const at = (node as { range?: [number, number, number] }).range?.[0] ?? 0
    const explicit = (node as { tag?: string }).tag ?? ''
    if (isMap(node)) {
      return {
        kind: 'map',
        tag: explicit && explicit !== '!' ? shortTag(explicit) : MAP_TAG,
        value: '',
        at,
        node,
        explicit,
        quoted: false,
      }
    }
    if (isSeq(node)) {
      return {
        kind: 'seq',
        tag: explicit && explicit !== '!' ? shortTag(explicit) : SEQ_TAG,
        value: '',
        at,
        node,
        explicit,
        quoted: false,
      }
    }
    const sc = node as Scalar
    const value = sc.value === null || sc.value === undefined ? '' : String(sc.value)
    const quoted = sc.type !== undefined && sc.type !== 'PLAIN'
    let tag: string
    if (explicit && explicit !== '!') tag = shortTag(explicit)
    else if (quoted) tag = STR_TAG
    else if (value === '<<') tag = MERGE_TAG
    else tag = resolve('', value).tag
    return { kind: 'scalar', tag, value, at, node, explicit: explicit === '!' ? '' : explicit, quoted }
  }

  private line(v: NodeView): number {
    return v.at < 0 ? 0 : this.lineOf(v.at)
  }

  /** n.indicatedString() */
  private indicatedString(v: NodeView): boolean {
    return v.kind === 'scalar' && (shortTag(v.explicit) === STR_TAG || (v.explicit === '' && v.quoted))
  }

  private terror(v: NodeView, tag: string, out: GoType): void {
    const t = v.tag !== '' ? v.tag : tag
    let value = ''
    if (t !== SEQ_TAG && t !== MAP_TAG) {
      const bytes = fromText(v.value)
      // value[:7] cuts bytes, which may split a UTF-8 sequence: keep the bytes as they are.
      value = bytes.length > 10 ? ` \`${bytes.slice(0, 7)}...\`` : ` \`${bytes}\``
    }
    this.terrors.push(`line ${this.line(v)}: cannot unmarshal ${shortTag(t)}${value} into ${out.name}`)
  }

  /** d.unmarshal: returns the decoded value (null when nothing was stored) and whether it was "good". */
  unmarshal(n: YNodeAny, out: GoType): { value: Decoded | null; good: boolean } {
    const node = n as YNode | null | undefined
    if (isAlias(node)) {
      if (this.aliasStack.has(node))
        throw new YamlFailure(`yaml: anchor '${(node as Alias).source}' value contains itself`)
      this.aliasStack.add(node)
      try {
        const target = node.resolve(this.doc)
        return this.unmarshal(target as YNode, out)
      } finally {
        this.aliasStack.delete(node)
      }
    }
    const v = this.view(node)
    if (v === null) return { value: null, good: false }
    switch (v.kind) {
      case 'scalar':
        return this.scalar(v, out)
      case 'map':
        return this.mapping(v, out)
      case 'seq':
        return this.sequence(v, out)
    }
  }

  private scalar(v: NodeView, out: GoType): { value: Decoded | null; good: boolean } {
    let r: Resolved
    if (this.indicatedString(v)) r = { tag: STR_TAG, kind: 'str' }
    else {
      try {
        r = resolve(v.explicit, v.value)
      } catch (e) {
        throw new YamlFailure(`yaml: ${(e as Error).message}`)
      }
      if (r.tag === BINARY_TAG) throw new YamlFailure('yaml: !!binary values are not checked by ongrid-skill')
    }
    if (r.kind === 'null') return { value: null, good: false }
    switch (out.k) {
      case 'string':
        return { value: { k: 'string', value: fromText(v.value), at: v.at }, good: true }
      case 'any':
        return { value: { k: 'other', at: v.at }, good: true }
      case 'int': {
        if (r.kind === 'int' && r.value >= -(2n ** 63n) && r.value <= 2n ** 63n - 1n) {
          return { value: { k: 'int', value: r.value, at: v.at }, good: true }
        }
        // Go: resolved <= math.MaxInt64 (compared as float64, i.e. 2^63); int64(f) then wraps.
        if (r.kind === 'float' && !Number.isNaN(r.value) && r.value <= 2 ** 63) {
          const t = Math.trunc(r.value)
          const big = Number.isFinite(t) ? BigInt(t) : -(2n ** 63n)
          return { value: { k: 'int', value: big, at: v.at }, good: true }
        }
        break
      }
    }
    this.terror(v, r.tag, out)
    return { value: null, good: false }
  }

  private sequence(v: NodeView, out: GoType): { value: Decoded | null; good: boolean } {
    const seq = v.node as YAMLSeq
    if (out.k === 'any') {
      for (const item of seq.items) this.unmarshal(item as YNode, any)
      return { value: { k: 'other', at: v.at }, good: true }
    }
    if (out.k !== 'slice') {
      this.terror(v, SEQ_TAG, out)
      return { value: null, good: false }
    }
    const items: Decoded[] = []
    for (const item of seq.items) {
      const r = this.unmarshal(item as YNode, out.elem)
      if (r.good && r.value) items.push(r.value)
    }
    return { value: { k: 'list', items, at: v.at }, good: true }
  }

  private keyViews(m: YAMLMap): { key: NodeView; pair: Pair }[] {
    return m.items.map((p) => {
      const kv = this.view(p.key as YNode) ?? {
        kind: 'scalar' as const,
        tag: NULL_TAG,
        value: '',
        at: -1,
        node: null,
        explicit: '',
        quoted: false,
      }
      return { key: kv, pair: p as Pair }
    })
  }

  private mapping(v: NodeView, out: GoType): { value: Decoded | null; good: boolean } {
    const m = v.node as YAMLMap
    const keys = this.keyViews(m)
    const nerrs = this.terrors.length
    for (let i = 0; i < keys.length; i++) {
      for (let j = i + 1; j < keys.length; j++) {
        const a = keys[i].key
        const b = keys[j].key
        if (a.kind === b.kind && a.value === b.value) {
          this.terrors.push(
            `line ${this.line(b)}: mapping key ${quote(fromText(b.value))} already defined at line ${this.line(a)}`,
          )
        }
      }
    }
    if (this.terrors.length > nerrs) return { value: null, good: false }
    if (out.k === 'struct') return this.mappingStruct(v, keys, out)
    if (out.k !== 'map' && out.k !== 'any') {
      this.terror(v, MAP_TAG, out)
      return { value: null, good: false }
    }
    const keyType: GoType = out.k === 'map' ? str : any
    const elem = out.k === 'map' ? out.elem : any
    let merge: Pair | null = null
    for (const { key, pair } of keys) {
      if (this.isMerge(key)) {
        merge = pair
        continue
      }
      if (this.unmarshal(pair.key as YNode, keyType).good) this.unmarshal(pair.value as YNode, elem)
    }
    if (merge) this.merge(merge.value as YNode, out)
    return { value: { k: 'other', at: v.at }, good: true }
  }

  private isMerge(k: NodeView): boolean {
    return (
      k.kind === 'scalar' &&
      k.value === '<<' &&
      (k.explicit === '' || shortTag(k.explicit) === MERGE_TAG) &&
      !k.quoted
    )
  }

  private mergedFields: Set<string> | null = null

  private mappingStruct(
    v: NodeView,
    keys: { key: NodeView; pair: Pair }[],
    out: Extract<GoType, { k: 'struct' }>,
    into?: Map<string, Decoded>,
  ): { value: Decoded | null; good: boolean } {
    const fields = into ?? new Map<string, Decoded>()
    const merged = this.mergedFields
    this.mergedFields = null
    let merge: Pair | null = null
    for (const { key, pair } of keys) {
      if (this.isMerge(key)) {
        merge = pair
        continue
      }
      const k = this.unmarshal(pair.key as YNode, str)
      if (!k.good || k.value?.k !== 'string') continue
      const name = k.value.value
      if (merged) {
        if (merged.has(name)) continue
        merged.add(name)
      }
      const ft = out.fields[name]
      if (ft === undefined) continue
      const r = this.unmarshal(pair.value as YNode, ft)
      if (r.value) fields.set(name, r.value)
    }
    this.mergedFields = merged
    if (merge) this.mergeStruct(keys, merge.value as YNode, out, fields)
    return { value: { k: 'fields', fields, at: v.at }, good: true }
  }

  private mergeTargets(n: YNode): NodeView[] {
    const fail = () => {
      throw new YamlFailure('yaml: map merge requires map or sequence of maps as the value')
    }
    const v = this.view(n)
    if (v === null) return fail()
    if (v.kind === 'map') return [v]
    if (v.kind === 'seq') {
      return (v.node as YAMLSeq).items.map((item) => {
        const iv = this.view(item as YNode)
        if (iv === null || iv.kind !== 'map') return fail()
        return iv
      })
    }
    return fail()
  }

  private mergeStruct(
    parentKeys: { key: NodeView; pair: Pair }[],
    mergeNode: YNode,
    out: Extract<GoType, { k: 'struct' }>,
    fields: Map<string, Decoded>,
  ): void {
    const saved = this.mergedFields
    if (saved === null) {
      this.mergedFields = new Set(
        parentKeys.filter((k) => k.key.kind === 'scalar').map((k) => fromText(k.key.value)),
      )
    }
    for (const t of this.mergeTargets(mergeNode)) {
      this.mappingStruct(t, this.keyViews(t.node as YAMLMap), out, fields)
    }
    this.mergedFields = saved
  }

  private merge(mergeNode: YNode, out: GoType): void {
    for (const t of this.mergeTargets(mergeNode)) this.unmarshal(t.node as YNode, out)
  }
}

/** Decodes the document's root into `type` as yaml.Unmarshal does (first document only). */
export function decodeDocument(
  doc: Document,
  type: GoType,
  lineOf: (offset: number) => number,
): DecodeOutcome {
  const d = new Decoder(doc, lineOf)
  try {
    const contents = doc.contents as YNode | null
    if (contents === null || contents === undefined) return { value: null, terrors: [], failure: null }
    const r = d.unmarshal(contents, type)
    return { value: r.value, terrors: d.terrors, failure: null }
  } catch (e) {
    if (e instanceof YamlFailure) return { value: null, terrors: [], failure: e.message }
    throw e
  }
}
