import { rootCertificates } from 'node:tls'
import type RemoteBind from '../../commands/remote/bind.js'
import type RemoteDiff from '../../commands/remote/diff.js'
import type RemoteExec from '../../commands/remote/exec.js'
import type RemoteGet from '../../commands/remote/get.js'
import type RemoteInstalled from '../../commands/remote/installed.js'
import type RemoteLogin from '../../commands/remote/login.js'
import type RemoteLogout from '../../commands/remote/logout.js'
import type RemoteLs from '../../commands/remote/ls.js'
import type RemotePush from '../../commands/remote/push.js'
import type RemoteRegistries from '../../commands/remote/registries.js'
import type RemoteUninstall from '../../commands/remote/uninstall.js'
import type RemoteWhoami from '../../commands/remote/whoami.js'
import { trustedCas } from '../../core/audit/db.js'
import { assembleArgs } from '../../core/executor/args.js'
import { authorize } from '../../core/executor/gate.js'
import { valid } from '../../core/go/encoding/json/scanner.js'
import { fromBuffer, fromText, type GoBytes, type GoString, toText } from '../../core/go/gostring.js'
import { reasonText } from '../../core/go/os/errors.js'
import { stat } from '../../core/go/os/file.js'
import { abs } from '../../core/go/path/filepath/path.js'
import { NotRegularError, readFileBounded, TooLargeError } from '../../core/read-bounded.js'
import { API, ManagerClient, refusal } from '../../core/remote/client.js'
import { CredentialStore, type Session } from '../../core/remote/credentials.js'
import type { DiffResult, InstalledPack, LocalPack, LocalSkill, RemoteSkill } from '../../core/remote/diff.js'
import { managerUrl, REMOTE_EXIT, RemoteError, type Transport } from '../../core/remote/http.js'
import { parseTimeoutText } from '../../core/timeout-flag.js'
import { envelope, type JsonError, jsonError } from '../../ui/envelope.js'
import * as view from '../../ui/remote.js'
import {
  EXIT,
  ExitWith,
  failureDocument,
  type InputOf,
  printJson,
  reportError,
  UserError,
} from '../errors.js'
import { deployedRelease } from '../manager-version.js'
import { argBytes, dirsGiven } from '../os-bytes.js'
import { MANAGER_ENV } from '../remote-flags.js'
import { onStopSignals } from '../signals.js'

type Common = {
  manager?: string
  ca?: string
  insecure?: boolean
  'allow-http'?: boolean
  timeout?: string
  profile?: string
  json?: boolean
}

const PASSWORD_ENV = 'ONGRID_PASSWORD'
const DEFAULT_TIMEOUT_MS = 30_000
/** nginx cuts a request at 300 s: a little more, so its 504 is what the user sees. */
const EXEC_TIMEOUT_MS = 310_000

function warn(text: string): void {
  process.stderr.write(`ongrid-skill: warning: ${view.line(text, process.stderr)}\n`)
}

function readSmallFile(flag: string, file: string, limit: number): Buffer {
  try {
    return readFileBounded(file === '-' ? 0 : file, limit, { regularOnly: file !== '-' })
  } catch (e) {
    const why = e instanceof TooLargeError || e instanceof NotRegularError ? e.message : reasonText(e)
    throw new UserError(`${flag} ${file}: ${why}`)
  }
}

/**
 * Which manager, and how it is trusted: --manager, $ONGRID_MANAGER_URL, else the `manager:`
 * profile (--profile, else `default`) of the nearest .ongrid-skill.yaml, else the one manager
 * the credential store knows. Flags win over the profile's ca and insecure.
 */
async function managerOf(
  flags: Common,
  store: CredentialStore,
): Promise<{ base: string; ca?: string; insecure?: boolean }> {
  const allowHttp = flags['allow-http'] === true
  const given = flags.manager ?? process.env[MANAGER_ENV]
  if (given !== undefined && given !== '') return { base: managerUrl(given, allowHttp) }
  const { ConfigFinder } = await import('../../core/lint/config.js')
  const config = await new ConfigFinder(null).find(fromText(process.cwd()))
  const name = flags.profile ?? 'default'
  const profile = config?.managers?.get(name)
  if (profile !== undefined)
    return { base: managerUrl(profile.url, allowHttp), ca: profile.ca, insecure: profile.insecure }
  if (flags.profile !== undefined) {
    throw new UserError(
      config?.managers
        ? `--profile ${flags.profile}: ${toText(config.path)} has no such manager profile (it has ${[...config.managers.keys()].join(', ')})`
        : `--profile ${flags.profile}: no manager: profiles in ${config ? toText(config.path) : 'a .ongrid-skill.yaml here or above'}`,
    )
  }
  const known = store.managers()
  if (known.length === 1) return { base: known[0] }
  throw new UserError(
    known.length === 0
      ? `which manager? give --manager https://host, set ${MANAGER_ENV}, or a manager: profile in .ongrid-skill.yaml`
      : `logged in to ${known.length} managers: say which with --manager or ${MANAGER_ENV}`,
  )
}

/** The client for a command, and the stop-signal handlers (removed by `done`). */
async function connect(flags: Common, defaultTimeoutMs = DEFAULT_TIMEOUT_MS) {
  const store = new CredentialStore()
  const m = await managerOf(flags, store)
  let timeoutMs = defaultTimeoutMs
  if (flags.timeout !== undefined) {
    const d = parseTimeoutText(flags.timeout)
    if (!d.ok) throw new UserError(`--timeout ${JSON.stringify(flags.timeout)}: ${d.problem}`)
    if (d.ns <= 0n) throw new UserError('--timeout must be more than 0')
    timeoutMs = Math.max(1, Number(d.ns / 1_000_000n))
  }
  if (flags.insecure && flags.ca !== undefined)
    throw new UserError('--ca and --insecure together: choose one')
  const caFile = flags.ca ?? (flags.insecure ? undefined : m.ca)
  const insecure = flags.insecure === true || (flags.ca === undefined && m.insecure === true)
  // bin/run.js keeps NODE_EXTRA_CA_CERTS from Node's startup: its certificates are added here.
  const extra = trustedCas(process.env, rootCertificates)
  const ca =
    caFile === undefined
      ? extra
      : [...(extra ?? rootCertificates), readSmallFile('--ca', caFile, 1 << 20).toString('utf8')]
  const controller = new AbortController()
  const off = onStopSignals(() => controller.abort())
  const t: Transport = {
    base: m.base,
    ca,
    insecure,
    timeoutMs,
    signal: controller.signal,
    onWarning: warn,
  }
  return { client: new ManagerClient(t, store), done: off }
}

async function withClient<T>(
  flags: Common,
  fn: (c: ManagerClient) => Promise<T>,
  timeoutMs?: number,
): Promise<T> {
  const { client, done } = await connect(flags, timeoutMs)
  try {
    return await fn(client)
  } finally {
    done()
  }
}

/** The --json document of a success (ui/envelope.ts), with the manager's URL first. */
function emit(
  command: string,
  base: string,
  fields: Record<string, unknown>,
  code: number = EXIT.ok,
  error?: JsonError,
): void {
  printJson(envelope(command, code, { manager: base, ...fields }, error ?? null))
}

/**
 * Runs a command's work; with --json a failure is also its document, whose error carries what
 * the manager said (http_status, manager_error, manager_code). The stderr line is reportError's.
 */
async function guarded(
  command: string,
  json: boolean | undefined,
  fn: () => Promise<number>,
): Promise<number> {
  try {
    return await fn()
  } catch (e) {
    if (json !== true || !(e instanceof UserError) || e instanceof ExitWith) throw e
    const code = reportError(e)
    const fields: Record<string, unknown> = {}
    if (e.hint) fields.hint = e.hint
    if (e instanceof RemoteError) {
      if (e.status !== undefined) fields.http_status = e.status
      if (e.managerText !== undefined) fields.manager_error = e.managerText
      if (e.code !== undefined) fields.manager_code = e.code
    }
    process.stdout.write(`${JSON.stringify(failureDocument(command, e.message, code, fields))}\n`)
    throw new ExitWith(code)
  }
}

function isoOf(unix: number): string | null {
  return unix > 0 ? new Date(unix * 1000).toISOString() : null
}

// ---------------------------------------------------------------------------------------------
// login, logout, whoami

/** A password: --password-stdin, $ONGRID_PASSWORD, else a no-echo prompt on a terminal. */
async function passwordOf(flags: { 'password-stdin'?: boolean }): Promise<string> {
  if (flags['password-stdin']) {
    const raw = readSmallFile('--password-stdin', '-', 64 << 10).toString('utf8')
    const pw = raw.replace(/\r?\n$/, '')
    if (pw === '') throw new UserError('--password-stdin: stdin held no password')
    return pw
  }
  const env = process.env[PASSWORD_ENV]
  if (env !== undefined && env !== '') return env
  if (process.stdin.isTTY !== true) {
    throw new UserError(
      `no password: stdin is not a terminal to ask on`,
      EXIT.usage,
      `pipe it with --password-stdin, or set ${PASSWORD_ENV} (never on the command line)`,
    )
  }
  const { askHidden } = await import('../prompt.js')
  const pw = await askHidden('Password: ')
  if (pw === '') throw new UserError('no password given')
  return pw
}

async function emailOf(flag: string | undefined): Promise<string> {
  if (flag !== undefined && flag.trim() !== '') return flag.trim()
  const env = process.env.ONGRID_EMAIL
  if (env !== undefined && env.trim() !== '') return env.trim()
  if (process.stdin.isTTY !== true) throw new UserError('no email: give --email (or set ONGRID_EMAIL)')
  const { askLine } = await import('../prompt.js')
  return (await askLine('Email: ')).trim()
}

async function remoteLoginWork({ flags }: InputOf<typeof RemoteLogin>): Promise<number> {
  const email = await emailOf(flags.email)
  const password = await passwordOf(flags)
  return withClient(flags, async (c) => {
    const { session, version } = await c.login(email, password)
    if (flags.json) {
      emit('remote login', c.base, {
        user: userDoc(session),
        manager_version: version,
        ...expiryDoc(session),
      })
    } else {
      process.stdout.write(view.loggedIn(c.base, session, version, c.store.path))
    }
    return EXIT.ok
  })
}

function userDoc(s: Session) {
  return { email: s.email, role: s.role }
}

function expiryDoc(s: Session) {
  return { access_expires_at: isoOf(s.access_expires_at), refresh_expires_at: isoOf(s.refresh_expires_at) }
}

async function remoteLogoutWork({ flags }: InputOf<typeof RemoteLogout>): Promise<number> {
  const store = new CredentialStore()
  const { base } = await managerOf(flags, store)
  const had = store.delete(base)
  if (flags.json) emit('remote logout', base, { forgotten: had })
  else
    process.stdout.write(
      had
        ? `Forgot the session with ${base}. The manager has no logout: its tokens stay valid until they expire.\n`
        : `No session with ${base} to forget.\n`,
    )
  return EXIT.ok
}

async function remoteWhoamiWork({ flags }: InputOf<typeof RemoteWhoami>): Promise<number> {
  return withClient(flags, async (c) => {
    const self = await c.json<{ id: number; email: string; role: string }>('GET', API.self)
    const { manager_version } = await c.version()
    const s = c.session()
    if (flags.json) {
      emit('remote whoami', c.base, {
        user: { id: self.id, email: self.email, role: self.role },
        manager_version,
        ...expiryDoc(s),
      })
    } else process.stdout.write(view.whoami(c.base, self, manager_version, s))
    return EXIT.ok
  })
}

// ---------------------------------------------------------------------------------------------
// ls, get, exec

/** Tables for a terminal; JSON when asked, or when stdout is not a terminal. */
function wantsJson(flags: { json?: boolean }): boolean {
  return flags.json === true || process.stdout.isTTY !== true
}

async function listSkills(c: ManagerClient, category?: string): Promise<RemoteSkill[]> {
  const q = category === undefined ? '' : `?category=${encodeURIComponent(category)}`
  const r = await c.json<{ items: RemoteSkill[] | null }>('GET', `${API.skills}${q}`)
  return r.items ?? []
}

async function remoteLsWork({ flags }: InputOf<typeof RemoteLs>): Promise<number> {
  return withClient(flags, async (c) => {
    const items = await listSkills(c, flags.category)
    if (wantsJson(flags)) emit('remote ls', c.base, { skills: items.map(view.skillDoc), total: items.length })
    else process.stdout.write(view.skillTable(items, process.stdout))
    return EXIT.ok
  })
}

/** GET /v1/skills/KEY; a 404 says whether the key is a SKILL.md skill (listed, never fetched). */
async function getSkill(c: ManagerClient, key: string): Promise<RemoteSkill> {
  const path = `${API.skills}/${encodeURIComponent(key)}`
  const r = await c.call('GET', path)
  if (r.status === 200) return JSON.parse(r.body.toString('utf8')) as RemoteSkill
  const err = refusal(`GET ${path}`, r, c.base)
  if (r.status === 404 && err.managerText === 'not found') {
    const listed = (await listSkills(c)).find((s) => s.key === key)
    if (listed !== undefined && listed.params === null) {
      throw new RemoteError(
        `${key} is a SKILL.md skill: the manager lists it but neither shows nor runs SKILL.md skills over the API`,
        REMOTE_EXIT.refused,
        undefined,
        404,
      )
    }
    throw new RemoteError(
      `no skill ${JSON.stringify(key)} on ${c.base} (${err.message})`,
      REMOTE_EXIT.refused,
      'list them: ongrid-skill remote ls',
      404,
    )
  }
  throw err
}

async function remoteGetWork({ args, flags }: InputOf<typeof RemoteGet>): Promise<number> {
  return withClient(flags, async (c) => {
    const s = await getSkill(c, args.key)
    if (wantsJson(flags)) emit('remote get', c.base, { skill: view.skillDoc(s) })
    else process.stdout.write(view.skillDetail(s, process.stdout))
    return EXIT.ok
  })
}

/** A JSON schema from the manager's ParamDefs, so that --arg is typed as the skill declares it. */
function schemaOf(s: RemoteSkill): unknown {
  const types: Record<string, string> = { int: 'integer', float: 'number', bool: 'boolean', array: 'array' }
  const properties: Record<string, { type: string }> = {}
  for (const p of s.params ?? []) properties[p.name] = { type: types[p.type] ?? 'string' }
  return { type: 'object', properties }
}

function argsJson(flags: { args?: string; 'args-file'?: string }): GoString | undefined {
  if (flags.args !== undefined) return argBytes(flags.args)
  if (flags['args-file'] !== undefined)
    return fromBuffer(readSmallFile('--args-file', flags['args-file'], 16 << 20))
  return undefined
}

async function remoteExecWork({ args, flags }: InputOf<typeof RemoteExec>): Promise<number> {
  let edge: number | undefined
  if (flags.edge !== undefined) {
    if (!/^[0-9]+$/.test(flags.edge) || Number(flags.edge) === 0 || !Number.isSafeInteger(Number(flags.edge)))
      throw new UserError(`--edge ${JSON.stringify(flags.edge)}: want an edge id, a whole number above 0`)
    edge = Number(flags.edge)
  }
  const json = flags.json === true
  return withClient(
    flags,
    async (c) => {
      const role = c.session().role
      const s = await getSkill(c, args.key)
      const cls = s.class === 'mutating' || s.class === 'dangerous' ? s.class : 'safe'
      const gate = authorize(cls, role)
      if (!json && !flags.quiet) process.stderr.write(view.gateLine(s, role, gate, edge))
      if (gate !== null) {
        throw new RemoteError(
          `${args.key}: the manager refuses ${cls} skills to role ${role} with ${JSON.stringify(gate)} (not called)`,
          REMOTE_EXIT.refused,
          cls === 'dangerous' ? 'no role may run a dangerous skill over the API' : undefined,
          403,
        )
      }
      if (s.scope === 'host' && edge === undefined) {
        throw new UserError(`${args.key} runs on an edge (scope host): give --edge ID (not called)`)
      }
      const params = assembleArgs({
        json: argsJson(flags),
        assignments: flags.arg ?? [],
        schema: schemaOf(s),
      })
      if (params !== '' && !valid(params)) throw new UserError('the args are not valid JSON (not called)')
      // The params bytes go as they are: the manager validates nothing against its ParamDefs.
      const body = `{${edge === undefined ? '' : `"edge_id":${edge},`}"params":${params === '' ? '{}' : toText(params)}}`
      const path = `${API.skills}/${encodeURIComponent(args.key)}/execute`
      const started = process.hrtime.bigint()
      const r = await c.call('POST', path, { type: 'application/json', data: Buffer.from(body) })
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      if (r.status !== 200) throw refusal(`POST ${path}`, r, c.base)
      let out: { result?: unknown; error?: unknown }
      try {
        out = JSON.parse(r.body.toString('utf8'))
      } catch {
        throw new RemoteError(`POST ${path}: the manager's answer is not JSON`, REMOTE_EXIT.refused)
      }
      const error = typeof out.error === 'string' && out.error !== '' ? out.error : null
      const failed = error === null ? null : `${args.key} failed on the manager: ${JSON.stringify(error)}`
      if (failed !== null) process.stderr.write(`ongrid-skill: ${view.line(failed, process.stderr)}\n`)
      if (json) {
        let argsDoc: unknown = params === '' ? {} : toText(params)
        try {
          argsDoc = JSON.parse(toText(params))
        } catch {}
        const code = failed === null ? EXIT.ok : REMOTE_EXIT.failed
        emit(
          'remote exec',
          c.base,
          {
            result: out.result ?? null,
            duration_ms: Math.round(ms * 1000) / 1000,
            skill: { name: s.key, class: cls, scope: s.scope ?? null, category: s.category ?? null },
            edge_id: edge ?? null,
            role,
            args: argsDoc,
          },
          code,
          failed === null ? undefined : jsonError('remote exec', code, failed, { manager_error: error }),
        )
      } else if (error === null) {
        process.stdout.write(`${JSON.stringify(out.result ?? null, null, 2)}\n`)
      }
      // A 200 carrying `error` is a failed run.
      return error === null ? EXIT.ok : REMOTE_EXIT.failed
    },
    EXEC_TIMEOUT_MS,
  )
}

// ---------------------------------------------------------------------------------------------
// installed, uninstall, bind, registries

async function installedPacks(c: ManagerClient): Promise<InstalledPack[]> {
  const r = await c.json<{ items: InstalledPack[] | null }>('GET', API.installed)
  return r.items ?? []
}

async function remoteInstalledWork({ flags }: InputOf<typeof RemoteInstalled>): Promise<number> {
  return withClient(flags, async (c) => {
    const items = await installedPacks(c)
    if (wantsJson(flags))
      emit('remote installed', c.base, { packs: items.map(view.packDoc), total: items.length })
    else process.stdout.write(view.packTable(items, process.stdout))
    return EXIT.ok
  })
}

async function remoteUninstallWork({ args, flags }: InputOf<typeof RemoteUninstall>): Promise<number> {
  return withClient(flags, async (c) => {
    // The manager answers 204 for any id, installed or not: say which it was.
    const was = (await installedPacks(c)).some((p) => p.PackID === args.id)
    await c.json('DELETE', `${API.installed}/${encodeURIComponent(args.id)}`)
    if (flags.json) emit('remote uninstall', c.base, { pack_id: args.id, was_installed: was })
    else
      process.stdout.write(
        was
          ? `Uninstalled ${view.line(args.id, process.stdout)} (its files, its row and its bindings are gone).\n`
          : `${view.line(args.id, process.stdout)} was not installed (the manager answers 204 all the same).\n`,
      )
    return EXIT.ok
  })
}

async function remoteBindWork({ args, argv, flags }: InputOf<typeof RemoteBind>): Promise<number> {
  const pairs = argv.slice(1)
  const bindings: Record<string, string> = {}
  for (const p of pairs) {
    const eq = p.indexOf('=')
    if (eq <= 0 || p.slice(eq + 1).trim() === '')
      throw new UserError(`${JSON.stringify(p)}: want SLOT=CREDENTIAL (a vault credential's name)`)
    bindings[p.slice(0, eq).trim()] = p.slice(eq + 1).trim()
  }
  if (pairs.length === 0 && !flags.clear)
    throw new UserError('no SLOT=CREDENTIAL: give the bindings, or --clear to remove them all')
  return withClient(flags, async (c) => {
    const r = await c.call('PUT', `${API.installed}/${encodeURIComponent(args.id)}/bindings`, {
      type: 'application/json',
      data: Buffer.from(JSON.stringify({ bindings })),
    })
    if (r.status === 404) {
      throw new RemoteError(
        `${args.id} is not installed on ${c.base} (the manager answered 404)`,
        REMOTE_EXIT.refused,
        'see: ongrid-skill remote installed',
        404,
      )
    }
    if (r.status !== 200) throw refusal(`PUT bindings of ${args.id}`, r, c.base)
    if (flags.json) emit('remote bind', c.base, { pack_id: args.id, bindings })
    else
      process.stdout.write(
        `Bound ${Object.keys(bindings).length} slot(s) of ${view.line(args.id, process.stdout)} (the whole map is replaced; names are not checked against the vault).\n`,
      )
    return EXIT.ok
  })
}

async function remoteRegistriesWork({ flags }: InputOf<typeof RemoteRegistries>): Promise<number> {
  return withClient(flags, async (c) => {
    const r = await c.json<{ items: { name: string; url: string; allowed: boolean }[] | null }>(
      'GET',
      API.registries,
    )
    const items = r.items ?? []
    const devMode = items.some((i) => i.name === '<dev-mode>')
    if (flags.json) emit('remote registries', c.base, { registries: items, dev_mode: devMode })
    else process.stdout.write(view.registries(items, devMode, process.stdout))
    return EXIT.ok
  })
}

// ---------------------------------------------------------------------------------------------
// push

/** The upload endpoint's limit, checked before sending (remote-contract §5.8). */
const MAX_UPLOAD = 64 << 20

async function remotePushWork({ args, flags }: InputOf<typeof RemotePush>): Promise<number> {
  const { pushPrepare } = await import('./remote-push.js')
  const prepared = await pushPrepare(args.path, flags)
  if (prepared.code !== EXIT.ok || prepared.archive === null) return prepared.code
  const { archive, name, cleanup } = prepared
  try {
    if (archive.length > MAX_UPLOAD - 1024) {
      throw new UserError(
        `${name}: ${archive.length} bytes; the upload endpoint takes at most 64 MiB per request (not sent)`,
      )
    }
    return await withClient(
      flags,
      async (c) => {
        const boundary = `ongrid-skill-${Math.random().toString(16).slice(2)}`
        const head = Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename=${JSON.stringify(name)}\r\nContent-Type: application/octet-stream\r\n\r\n`,
        )
        const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
        const r = await c.call('POST', API.upload, {
          type: `multipart/form-data; boundary=${boundary}`,
          data: Buffer.concat([head, archive, tail]),
        })
        if (r.status === 409) {
          const e = refusal('upload', r, c.base)
          throw new RemoteError(
            e.message,
            REMOTE_EXIT.refused,
            'the manager has no update route: uninstall it (remote uninstall ID; its bindings go too), push again, then bind again',
            409,
          )
        }
        if (r.status !== 200) throw refusal('upload', r, c.base)
        const doc = JSON.parse(r.body.toString('utf8')) as {
          pack: InstalledPack
          capabilities: unknown
          warnings: { path: string; reason: string; code: string }[] | null
        }
        if (flags.json) {
          emit('remote push', c.base, {
            pack: view.packDoc(doc.pack),
            capabilities: doc.capabilities,
            warnings: doc.warnings ?? [],
          })
        } else process.stdout.write(view.pushed(doc, process.stdout))
        return EXIT.ok
      },
      EXEC_TIMEOUT_MS,
    )
  } finally {
    cleanup()
  }
}

// ---------------------------------------------------------------------------------------------
// diff

async function localSide(
  dirs: GoBytes[],
  builtins: readonly GoString[],
): Promise<{ skills: LocalSkill[]; packs: LocalPack[] }> {
  const { detectContainer, loadPluginContainer } = await import('../../core/marketplace/container.js')
  const { loadDirs } = await import('../../core/loader/loader.js')
  const { Registry } = await import('../../core/loader/registry.js')
  const skills: LocalSkill[] = []
  const packs: LocalPack[] = []
  const walked: GoString[] = []
  for (const d of dirs) {
    // The bytes given (a name that is not UTF-8 is that dir, not Node's text of it).
    const text = toText(d)
    const a = abs(d)
    const dir = a.ok ? a.value : d
    const st = stat(dir)
    if (!st.ok || !st.value.isDir()) throw new UserError(`${text}: not a directory`)
    if (detectContainer(dir).kind !== '') {
      const l = await loadPluginContainer(dir)
      if (!l.ok) throw new UserError(`${text}: ${toText(l.err.error())}`)
      const p = l.result.pack
      packs.push({
        id: toText(p.id),
        displayName: toText(p.displayName),
        version: toText(p.version),
        manifestSha256: p.manifestSHA256,
        skills: l.result.skills.map((s) => toText(s.name)),
        path: text,
      })
    } else walked.push(dir) // the manager skips a relative dir; the repo's are meant
  }
  if (walked.length > 0) {
    // As the manager's boot registers them: one registry over the dirs in order, builtins first.
    const res = loadDirs(walked, { registry: new Registry(builtins), onEvent: () => {} })
    for (const s of res.skills) {
      skills.push({
        key: toText(s.key),
        description: toText(s.description),
        class: s.class,
        category: toText(s.category),
        path: toText(s.manifestPath),
      })
    }
  }
  return { skills, packs }
}

async function remoteDiffWork({ argv, flags }: InputOf<typeof RemoteDiff>): Promise<number> {
  const { diffManager } = await import('../../core/remote/diff.js')
  const dirs = dirsGiven(argv, 'allow-list roots or marketplace pack dirs')
  return withClient(flags, async (c) => {
    // The local side as the release deployed there would load it (its builtin keys).
    const release = deployedRelease((await c.version()).manager_version, c.base, flags.json === true)
    const local = await localSide(dirs, release.builtinSkillKeys)
    const [skills, installed] = await Promise.all([listSkills(c), installedPacks(c)])
    const d: DiffResult = diffManager(local, { skills, installed })
    const code = d.drift ? REMOTE_EXIT.failed : EXIT.ok
    if (flags.json) {
      const n = d.entries.filter((e) => e.state !== 'same').length
      emit(
        'remote diff',
        c.base,
        { drift: d.drift, entries: d.entries, not_compared: d.not_compared },
        code,
        d.drift ? jsonError('remote diff', code, `${n} difference(s) with ${c.base}`) : undefined,
      )
    } else process.stdout.write(view.diffText(d, c.base, process.stdout))
    return code
  })
}

export const remoteLoginAction = (input: InputOf<typeof RemoteLogin>): Promise<number> =>
  guarded('remote login', input.flags.json, () => remoteLoginWork(input))

export const remoteLogoutAction = (input: InputOf<typeof RemoteLogout>): Promise<number> =>
  guarded('remote logout', input.flags.json, () => remoteLogoutWork(input))

export const remoteWhoamiAction = (input: InputOf<typeof RemoteWhoami>): Promise<number> =>
  guarded('remote whoami', input.flags.json, () => remoteWhoamiWork(input))

export const remoteLsAction = (input: InputOf<typeof RemoteLs>): Promise<number> =>
  guarded('remote ls', wantsJson(input.flags), () => remoteLsWork(input))

export const remoteGetAction = (input: InputOf<typeof RemoteGet>): Promise<number> =>
  guarded('remote get', wantsJson(input.flags), () => remoteGetWork(input))

export const remoteExecAction = (input: InputOf<typeof RemoteExec>): Promise<number> =>
  guarded('remote exec', input.flags.json, () => remoteExecWork(input))

export const remoteInstalledAction = (input: InputOf<typeof RemoteInstalled>): Promise<number> =>
  guarded('remote installed', wantsJson(input.flags), () => remoteInstalledWork(input))

export const remoteUninstallAction = (input: InputOf<typeof RemoteUninstall>): Promise<number> =>
  guarded('remote uninstall', input.flags.json, () => remoteUninstallWork(input))

export const remoteBindAction = (input: InputOf<typeof RemoteBind>): Promise<number> =>
  guarded('remote bind', input.flags.json, () => remoteBindWork(input))

export const remoteRegistriesAction = (input: InputOf<typeof RemoteRegistries>): Promise<number> =>
  guarded('remote registries', input.flags.json, () => remoteRegistriesWork(input))

export const remotePushAction = (input: InputOf<typeof RemotePush>): Promise<number> =>
  guarded('remote push', input.flags.json, () => remotePushWork(input))

export const remoteDiffAction = (input: InputOf<typeof RemoteDiff>): Promise<number> =>
  guarded('remote diff', input.flags.json, () => remoteDiffWork(input))
