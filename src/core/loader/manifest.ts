import { type DecodeResult, type KeyEvent, type StructSpec, unmarshal } from '../go/encoding/json/decode.js'
import { type GoError, type Result, WrapError } from '../go/errors.js'
import { fromBuffer, type GoString } from '../go/gostring.js'
import { readFile } from '../go/os/file.js'

/** The manager's `skill.SkillManifest`, field for field (json tag → Go type). */
export const MANIFEST_SPEC: StructSpec = {
  goType: 'skill.SkillManifest',
  structName: 'SkillManifest',
  fields: [
    { tag: 'name', kind: 'string' },
    { tag: 'description', kind: 'string' },
    { tag: 'schema', kind: 'rawMessage' },
    { tag: 'entry', kind: 'string' },
    { tag: 'env_allow', kind: 'stringSlice' },
    { tag: 'timeout_seconds', kind: 'int' },
    { tag: 'class', kind: 'string' },
    { tag: 'category', kind: 'string' },
  ],
}

export interface Manifest {
  name: GoString
  description: GoString
  /** Raw bytes of the `schema` value (json.RawMessage), null when absent. */
  schema: GoString | null
  entry: GoString
  envAllow: GoString[] | null
  timeoutSeconds: bigint
  class: GoString
  category: GoString
}

export interface ParsedManifest {
  manifest: Manifest
  /** The file's bytes, when it could be read. */
  raw: GoString | null
  /** Every top-level key in document order, with what it matched. */
  keys: KeyEvent[]
  /** `read: …` or `decode: …`, as the loader's parseManifest wraps them. */
  err: GoError | null
}

export function manifestFromValues(values: DecodeResult['values']): Manifest {
  return {
    name: values.name as GoString,
    description: values.description as GoString,
    schema: values.schema as GoString | null,
    entry: values.entry as GoString,
    envAllow: values.env_allow as GoString[] | null,
    timeoutSeconds: values.timeout_seconds as bigint,
    class: values.class as GoString,
    category: values.category as GoString,
  }
}

/** Decodes manifest bytes exactly as `json.Unmarshal(b, &m)` does (error wrapped as `decode: …`). */
export function decodeManifest(raw: GoString): ParsedManifest {
  const r = unmarshal(raw, MANIFEST_SPEC)
  return {
    manifest: manifestFromValues(r.values),
    raw,
    keys: r.keys,
    err: r.err ? new WrapError('decode: ', r.err) : null,
  }
}

/** The loader's parseManifest: os.ReadFile (or what a caller read already), then decode. */
export function parseManifest(
  path: GoString,
  read: (p: GoString) => Result<Buffer> = readFile,
): ParsedManifest {
  const file = read(path)
  if (!file.ok) {
    return {
      manifest: manifestFromValues(unmarshal('null', MANIFEST_SPEC).values),
      raw: null,
      keys: [],
      err: new WrapError('read: ', file.err),
    }
  }
  return decodeManifest(fromBuffer(file.value))
}
