#!/usr/bin/env node
// {{name}}: a sample entry for its params ({{params_names}}).
//
// The ongrid manager runs this file with the call's JSON args on stdin and only
// the environment variables listed in env_allow (PATH is there so that the
// `#!/usr/bin/env node` line can find node). Node's standard library only.
// stdout gets exactly one JSON object; progress goes to stderr; bad args exit 1
// with one stderr line naming the field.
//
// It checks the args as the schema in skill.json states them and answers with
// them: {"args": {...}}. Do the skill's work in work() and return its result.

const SKILL = '{{name}}'
// Each param and its JSON type, as skill.json's schema has them; keep them in step.
// Parsed, not written as an object literal: there `"__proto__": ...` would set the prototype
// instead of naming a param.
const PARAMS = JSON.parse('{{params_json}}')
const REQUIRED = {{required_json}}
const TYPE_WORDS = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
}

/** Args that do not match the schema in skill.json; the message names the field. */
class ArgsError extends Error {}

function log(message) {
  process.stderr.write(`${SKILL}: ${message}\n`)
}

function hasType(value, kind) {
  switch (kind) {
    case 'string':
      return typeof value === 'string'
    case 'boolean':
      return typeof value === 'boolean'
    case 'integer':
      return Number.isInteger(value)
    case 'number':
      return typeof value === 'number'
    case 'array':
      return Array.isArray(value)
    default:
      return value !== null && typeof value === 'object' && !Array.isArray(value)
  }
}

/** The args as the schema in skill.json states them. */
function parseArgs(raw) {
  let args = {}
  if (raw.trim() !== '') {
    try {
      args = JSON.parse(raw)
    } catch (e) {
      throw new ArgsError(`not valid JSON: ${e.message}`)
    }
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    throw new ArgsError('args must be a JSON object')
  }
  for (const field of Object.keys(args).sort()) {
    if (!Object.hasOwn(PARAMS, field)) throw new ArgsError(`${field}: unknown field`)
  }
  for (const field of REQUIRED) {
    if (!Object.hasOwn(args, field)) throw new ArgsError(`${field}: required`)
  }
  for (const [field, kind] of Object.entries(PARAMS)) {
    if (Object.hasOwn(args, field) && !hasType(args[field], kind)) {
      throw new ArgsError(`${field}: must be ${TYPE_WORDS[kind]}`)
    }
  }
  return args
}

/** The skill's work: replace this with yours, and return the result (JSON). */
async function work(args) {
  return { args }
}

async function readStdin() {
  const chunks = []
  for await (const chunk of process.stdin) chunks.push(chunk)
  return Buffer.concat(chunks).toString('utf8')
}

async function main() {
  let args
  try {
    args = parseArgs(await readStdin())
  } catch (e) {
    if (!(e instanceof ArgsError)) throw e
    log(`invalid args: ${e.message}`)
    return 1
  }
  process.stdout.write(`${JSON.stringify(await work(args))}\n`)
  return 0
}

main().then(
  (code) => process.stdout.write('', () => process.exit(code)),
  (e) => {
    log(`failed: ${e.message}`)
    process.exit(1)
  },
)
