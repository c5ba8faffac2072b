// Deterministic generator of skill-pack trees for the bench (no dependencies).
//
// generateTree({ packs, groups, seed }) builds, under .bench/trees/<key>/:
//   root/     the allow-list dir handed to `load-dirs` (groups of packs, a few levels deep)
//   outside/  files that live outside the allow-list root (targets of escaping symlinks)
//   expect.json  what the manager's loader must report for this tree (counts per outcome)
// The key encodes every parameter and GENERATOR_VERSION, so a cached tree is reused only
// when it was produced by the same code with the same parameters; a tree without
// expect.json (an interrupted run) is regenerated.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join, relative } from 'node:path'

/** Bump when the generated content changes, so cached trees are rebuilt. */
export const GENERATOR_VERSION = 2

/** The manager's builtin skill keys (src/core/loader/registry.ts), a few of which packs collide with. */
const BUILTINS = ['web_search', 'host_probe_http', 'host_tail_file', 'capture_pcap']

/**
 * The share of packs per outcome. Counts are exact (rounded from these shares),
 * then spread over the tree by a seeded shuffle.
 */
export const MIX = {
  brokenJson: 0.05, // parse errors: syntax errors, truncated files, wrong JSON types
  invalidName: 0.03, // build errors: not lower_snake, empty
  missingEntry: 0.02, // build errors: entry file absent
  duplicate: 0.03, // skipped: the name of a pack registered earlier in walk order
  builtin: 0.001, // skipped: a builtin key (web_search, …)
  symlinkInside: 0.004, // registered: entry is a symlink to a shared script inside the root
  symlinkEscape: 0.001, // build errors: entry is a symlink to a file outside the root
}

/** mulberry32: a small, fast, seedable PRNG. */
function prng(seed) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
  }
}

const TEAMS = ['netops', 'storage', 'db', 'platform', 'sre', 'security', 'edge', 'observability', 'infra']
const NOUNS = [
  'disk',
  'inode',
  'cpu',
  'memory',
  'swap',
  'nginx',
  'postgres',
  'redis',
  'kafka',
  'dns',
  'ntp',
  'cert',
  'route',
  'iptables',
  'cgroup',
  'journal',
  'raid',
  'zfs',
  'mount',
  'socket',
  'process',
  'container',
  'pod',
  'queue',
  'backup',
]
const VERBS = ['usage', 'check', 'probe', 'report', 'status', 'restart', 'inspect', 'tail', 'stats', 'rotate']
const CATEGORIES = ['filesystem', 'network', 'database', 'host', 'container', 'security', 'observability']
const CLASSES = ['safe', 'safe', 'safe', 'mutating', 'dangerous']
const ENV_VARS = ['PATH', 'HOME', 'LANG', 'TZ', 'KUBECONFIG', 'PGHOST', 'PGPORT', 'REDIS_URL', 'NO_PROXY']
/** Schema properties as real packs declare them: [name, JSON Schema]. */
const PROPS = [
  ['host', { type: 'string', description: 'Target host name or IP address.', default: 'localhost' }],
  [
    'count',
    { type: 'integer', description: 'How many samples to take.', minimum: 1, maximum: 100, default: 3 },
  ],
  ['verbose', { type: 'boolean', description: 'Include per-item details in the output.', default: false }],
  ['path', { type: 'string', description: 'Path on the host filesystem.', default: '/' }],
  ['format', { type: 'string', enum: ['json', 'text'], description: 'Output format of the report.' }],
  ['threshold', { type: 'number', description: 'Percent above which to warn.', default: 90 }],
  [
    'names',
    { type: 'array', items: { type: 'string' }, description: 'Names to filter on; empty means all.' },
  ],
  ['service', { type: 'string', description: 'systemd unit name, e.g. nginx.service.' }],
  ['port', { type: 'integer', description: 'TCP port to probe.', minimum: 1, maximum: 65535 }],
]
const BAD_NAMES = (base) => [
  base.replace(/_/g, '-'), // kebab-case
  base.toUpperCase(),
  base.replace(/_(\w)/g, (_, c) => c.toUpperCase()), // camelCase
  `${base} v2`,
  '',
  `${base}_naïve`, // non-ASCII
  `${base}.sh`,
]

function description(r, noun, verb) {
  const what = `Runs the ${noun} ${verb} on the manager host`
  const tails = [
    'and return a JSON summary.',
    'and report anything above the threshold.',
    'so an operator can decide whether to act. Read-only.',
    'with the same view the on-call runbook uses; returns one JSON object per item.',
  ]
  return `${what} ${r.pick(tails)}`
}

function manifestFor(r, name, entry) {
  const props = {}
  const n = 1 + r.int(4)
  for (let i = 0; i < n; i++) {
    const [prop, schema] = r.pick(PROPS)
    props[prop] = schema
  }
  const envAllow = ['PATH']
  for (let i = r.int(3); i > 0; i--) envAllow.push(r.pick(ENV_VARS))
  const [noun, verb] = name.split('_')
  return {
    name,
    description: description(r, noun ?? 'thing', verb ?? 'check'),
    entry,
    class: r.pick(CLASSES),
    category: r.pick(CATEGORIES),
    timeout_seconds: r.pick([5, 10, 15, 30, 60, 120]),
    env_allow: [...new Set(envAllow)],
    schema: { type: 'object', properties: props, additionalProperties: false },
  }
}

/**
 * Broken variants of a manifest's text: what hand-edited JSON really looks like. With
 * `syntaxOk` only the type errors (still JSON): a schema-only validator such as ajv-cli stops
 * at the first file it cannot parse, so the trees it is compared on hold none.
 */
function breakJson(r, m, syntaxOk) {
  const text = JSON.stringify(m, null, 2)
  switch (syntaxOk ? [2, 5][r.int(2)] : r.int(6)) {
    case 0: // trailing comma
      return text.replace(/\n}$/, ',\n}')
    case 1: // truncated write
      return text.slice(0, Math.max(1, Math.floor(text.length * (0.3 + r.next() * 0.5))))
    case 2: // wrong type: a string where Go wants an int
      return JSON.stringify({ ...m, timeout_seconds: String(m.timeout_seconds) }, null, 2)
    case 3: // a comment
      return text.replace('{\n', '{\n  // TODO: review before release\n')
    case 4: // single-quoted strings
      return text.replace(/"name": "([^"]*)"/, "'name': '$1'")
    default: // wrong type: env_allow as a comma-separated string
      return JSON.stringify({ ...m, env_allow: m.env_allow.join(',') }, null, 2)
  }
}

const RUN_SH = (name) => `#!/bin/sh
# ${name}: reads JSON args on stdin, prints one JSON object on stdout.
set -eu
args=$(cat)
printf '{"skill":"${name}","ok":true,"args_bytes":%d}\\n' "\${#args}"
`

/** Go's filepath.Walk visits a dir's entries sorted by name (bytes; names here are ASCII). */
function walkOrder(a, b) {
  const pa = a.split('/')
  const pb = b.split('/')
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    if (pa[i] !== pb[i]) return pa[i] < pb[i] ? -1 : 1
  }
  return pa.length - pb.length
}

export function treeKey({ packs, groups, seed, syntaxOk = false }) {
  return `packs${packs}-groups${groups}-seed${seed}${syntaxOk ? '-json' : ''}-v${GENERATOR_VERSION}`
}

/**
 * Returns { root, expect, generated, ms }: root is the absolute allow-list dir, expect the
 * counts of loader outcomes. Reuses a complete cached tree unless `regen` is set.
 */
export function generateTree({
  baseDir,
  packs = 10_000,
  groups = 100,
  seed = 1,
  syntaxOk = false,
  regen = false,
}) {
  const key = treeKey({ packs, groups, seed, syntaxOk })
  const dir = join(baseDir, key)
  const expectPath = join(dir, 'expect.json')
  if (!regen && existsSync(expectPath)) {
    return {
      root: join(dir, 'root'),
      expect: JSON.parse(readFileSync(expectPath, 'utf8')),
      generated: false,
      ms: 0,
    }
  }
  const t0 = performance.now()
  const tmp = `${dir}.tmp-${process.pid}`
  rmSync(tmp, { recursive: true, force: true })
  const r = prng(seed)

  // 1. Layout: `groups` team dirs; every third one nests its packs one level deeper
  //    (team/<sub>/pack), the rest hold packs directly (team/pack).
  const perGroup = Math.ceil(packs / groups)
  const rels = []
  for (let g = 0; g < groups && rels.length < packs; g++) {
    const team = `${TEAMS[g % TEAMS.length]}-${String(g).padStart(3, '0')}`
    const nested = g % 3 === 2
    for (let i = 0; i < perGroup && rels.length < packs; i++) {
      const noun = NOUNS[r.int(NOUNS.length)]
      const verb = VERBS[r.int(VERBS.length)]
      const slug = `${noun}_${verb}_${g}_${i}`
      const sub = nested ? `${['prod', 'staging', 'lab', 'legacy'][i % 4]}/` : ''
      rels.push({ rel: `${team}/${sub}${slug}`, slug, team })
    }
  }
  rels.sort((a, b) => walkOrder(a.rel, b.rel))

  // 2. Outcomes: exact counts, shuffled over the walk order.
  const kinds = []
  const counts = {}
  for (const [kind, share] of Object.entries(MIX)) {
    counts[kind] = Math.round(packs * share)
    for (let i = 0; i < counts[kind]; i++) kinds.push(kind)
  }
  while (kinds.length < packs) kinds.push('valid')
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = r.int(i + 1)
    ;[kinds[i], kinds[j]] = [kinds[j], kinds[i]]
  }

  // 3. Write, in walk order, so a duplicate can take the name of a pack registered before it.
  const expect = { manifests: 0, registered: 0, parseErrors: 0, buildErrors: 0, duplicates: 0, kinds: {} }
  const registered = []
  mkdirSync(join(tmp, 'outside'), { recursive: true })
  writeFileSync(join(tmp, 'outside', 'tool.sh'), RUN_SH('outside_tool'), { mode: 0o755 })
  const sharedDirs = new Set()
  for (let i = 0; i < rels.length; i++) {
    const { rel, slug, team } = rels[i]
    let kind = kinds[i]
    if (kind === 'duplicate' && registered.length === 0) kind = 'valid'
    expect.kinds[kind] = (expect.kinds[kind] ?? 0) + 1
    const packDir = join(tmp, 'root', rel)
    mkdirSync(packDir, { recursive: true })
    const binLayout = r.chance(0.15) // entry under bin/, as packs with several scripts do
    const entry = binLayout ? `bin/${slug}.sh` : 'run.sh'
    let name = slug
    if (kind === 'invalidName') name = r.pick(BAD_NAMES(slug))
    else if (kind === 'duplicate') name = r.pick(registered)
    else if (kind === 'builtin') name = r.pick(BUILTINS)
    const m = manifestFor(r, name, entry)
    const text = kind === 'brokenJson' ? breakJson(r, m, syntaxOk) : `${JSON.stringify(m, null, 2)}\n`
    writeFileSync(join(packDir, 'skill.json'), text)
    const entryPath = join(packDir, entry)
    if (binLayout) mkdirSync(join(packDir, 'bin'))
    if (kind === 'symlinkInside') {
      const shared = join(tmp, 'root', team, '_shared')
      if (!sharedDirs.has(shared)) {
        mkdirSync(shared, { recursive: true })
        writeFileSync(join(shared, 'common.sh'), RUN_SH('shared'), { mode: 0o755 })
        sharedDirs.add(shared)
      }
      // Relative targets, so the links survive the rename of the tmp dir (and a moved repo).
      symlinkSync(relative(dirname(entryPath), join(shared, 'common.sh')), entryPath)
    } else if (kind === 'symlinkEscape') {
      symlinkSync(relative(dirname(entryPath), join(tmp, 'outside', 'tool.sh')), entryPath)
    } else if (kind !== 'missingEntry') {
      writeFileSync(entryPath, RUN_SH(name))
      chmodSync(entryPath, 0o755)
    }
    if (r.chance(0.1)) writeFileSync(join(packDir, 'README.md'), `# ${slug}\n\nSee skill.json.\n`)
    expect.manifests++
    if (kind === 'brokenJson') expect.parseErrors++
    else if (kind === 'invalidName' || kind === 'missingEntry' || kind === 'symlinkEscape')
      expect.buildErrors++
    else if (kind === 'duplicate' || kind === 'builtin') expect.duplicates++
    else {
      expect.registered++
      registered.push(name)
    }
  }
  expect.packs = packs
  expect.groups = groups
  expect.seed = seed
  expect.syntaxOk = syntaxOk
  expect.generatorVersion = GENERATOR_VERSION
  rmSync(dir, { recursive: true, force: true })
  renameSync(tmp, dir)
  writeFileSync(expectPath, `${JSON.stringify(expect, null, 2)}\n`)
  return { root: join(dir, 'root'), expect, generated: true, ms: performance.now() - t0 }
}
