import type { KeyEvent } from '../../go/encoding/json/decode.js'
import { toText } from '../../go/gostring.js'
import { distance } from '../../suggest.js'

const FIELDS = ['name', 'description', 'schema', 'entry', 'env_allow', 'timeout_seconds', 'class', 'category']

/** Keys people write for the manifest's fields (normalised: lower case, letters and digits only). */
const ALIASES: Record<string, string> = {
  timeout: 'timeout_seconds',
  timeouts: 'timeout_seconds',
  timeoutsec: 'timeout_seconds',
  timeoutsecs: 'timeout_seconds',
  timeoutsecond: 'timeout_seconds',
  timeoutms: 'timeout_seconds',
  env: 'env_allow',
  envs: 'env_allow',
  environment: 'env_allow',
  envvars: 'env_allow',
  envallowed: 'env_allow',
  allowedenv: 'env_allow',
  allowenv: 'env_allow',
  envallowlist: 'env_allow',
  argsschema: 'schema',
  argschema: 'schema',
  inputschema: 'schema',
  jsonschema: 'schema',
  paramsschema: 'schema',
  parameters: 'schema',
  params: 'schema',
  args: 'schema',
  arguments: 'schema',
  command: 'entry',
  cmd: 'entry',
  exec: 'entry',
  executable: 'entry',
  script: 'entry',
  run: 'entry',
  main: 'entry',
  bin: 'entry',
  entrypoint: 'entry',
  program: 'entry',
  desc: 'description',
  summary: 'description',
  risk: 'class',
  safety: 'class',
  skillclass: 'class',
  id: 'name',
  key: 'name',
  skill: 'name',
  skillname: 'name',
  categories: 'category',
  group: 'category',
}

function normal(k: string): string {
  return k.toLowerCase().replace(/[^a-z0-9]/g, '')
}

/** The key a skill.json may carry for editors (schemas/skill.schema.json); the manager ignores it. */
export const SCHEMA_KEY = '$schema'

/** The field an unknown key probably meant, or null. */
export function nearMiss(key: string): string | null {
  // `$schema` is no slip of `schema`: it names the JSON Schema editors check skill.json with.
  if (key === SCHEMA_KEY) return null
  const n = normal(key)
  if (n === '') return null
  if (ALIASES[n]) return ALIASES[n]
  let best: string | null = null
  let bestD = Number.POSITIVE_INFINITY
  for (const f of FIELDS) {
    const d = distance(n, normal(f), false)
    if (d < bestD) {
      best = f
      bestD = d
    }
  }
  const limit = n.length <= 4 ? 1 : 2
  return bestD <= limit ? best : null
}

export function keyText(k: KeyEvent): string {
  return toText(k.key)
}
