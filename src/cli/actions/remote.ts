import { rootCertificates } from 'node:tls'
import { trustedCas } from '../../core/audit/db.js'
import { assembleArgs } from '../../core/executor/args.js'
import { valid } from '../../core/go/encoding/json/scanner.js'
import { fromBuffer, type GoString, toText } from '../../core/go/gostring.js'
import { reasonText } from '../../core/go/os/errors.js'
import { NotRegularError, readFileBounded, TooLargeError } from '../../core/read-bounded.js'
import { ManagerClient } from '../../core/remote/client.js'
import { CredentialStore, type Session, tokenRole } from '../../core/remote/credentials.js'
import type { DiffResult } from '../../core/remote/diff.js'
import { REMOTE_EXIT, RemoteError, type Transport } from '../../core/remote/http.js'
import {
  bindingsOf,
  bindPack,
  installedPacks,
  registries,
  uninstallPack,
  upload,
  uploadRequest,
} from '../../core/remote/marketplace.js'
import { chooseManager, MANAGER_ENV, type ManagerChoice } from '../../core/remote/profiles.js'
import {
  classOf,
  execute,
  gateRefusal,
  getSkill,
  listSkills,
  paramsSchema,
} from '../../core/remote/skills.js'
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
import { onStopSignals } from '../signals.js'
import type { remoteBindSpec as RemoteBind } from '../specs/remote-bind.js'
import type { remoteDiffSpec as RemoteDiff } from '../specs/remote-diff.js'
import type { remoteExecSpec as RemoteExec } from '../specs/remote-exec.js'
import type { remoteGetSpec as RemoteGet } from '../specs/remote-get.js'
import type { remoteInstalledSpec as RemoteInstalled } from '../specs/remote-installed.js'
import type { remoteLoginSpec as RemoteLogin } from '../specs/remote-login.js'
import type { remoteLogoutSpec as RemoteLogout } from '../specs/remote-logout.js'
import type { remoteLsSpec as RemoteLs } from '../specs/remote-ls.js'
import type { remotePushSpec as RemotePush } from '../specs/remote-push.js'
import type { remoteRegistriesSpec as RemoteRegistries } from '../specs/remote-registries.js'
import type { remoteUninstallSpec as RemoteUninstall } from '../specs/remote-uninstall.js'
import type { remoteWhoamiSpec as RemoteWhoami } from '../specs/remote-whoami.js'

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

/** Which manager, and how it is trusted (core/remote/profiles.ts); flags win over the profile's ca and insecure. */
function managerOf(flags: Common, store: CredentialStore): Promise<ManagerChoice> {
  return chooseManager({
    given: flags.manager ?? process.env[MANAGER_ENV],
    profile: flags.profile,
    allowHttp: flags['allow-http'] === true,
    store,
    cwd: process.cwd(),
  })
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
      if (e.timedOut && command === 'remote exec') fields.client_timeout = true
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
      process.stdout.write(view.loggedIn(c.base, session, version, c.store.path, process.stdout))
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
    const self = await c.self()
    const { manager_version } = await c.version()
    const s = c.session()
    // /v1/self reads the database; the manager checks the token's role until it is refreshed.
    const tokenRoleNow = tokenRole(s)
    if (flags.json) {
      emit('remote whoami', c.base, {
        user: { id: self.id, email: self.email, role: self.role },
        token_role: tokenRoleNow,
        manager_version,
        ...expiryDoc(s),
      })
    } else process.stdout.write(view.whoami(c.base, self, tokenRoleNow, manager_version, s, process.stdout))
    return EXIT.ok
  })
}

// ---------------------------------------------------------------------------------------------
// ls, get, exec

/** Tables for a terminal; JSON when asked, or when stdout is not a terminal. */
function wantsJson(flags: { json?: boolean }): boolean {
  return flags.json === true || process.stdout.isTTY !== true
}

async function remoteLsWork({ flags }: InputOf<typeof RemoteLs>): Promise<number> {
  return withClient(flags, async (c) => {
    const items = await listSkills(c, flags.category)
    if (wantsJson(flags)) emit('remote ls', c.base, { skills: items.map(view.skillDoc), total: items.length })
    else process.stdout.write(view.skillTable(items, process.stdout))
    return EXIT.ok
  })
}

async function remoteGetWork({ args, flags }: InputOf<typeof RemoteGet>): Promise<number> {
  return withClient(flags, async (c) => {
    const s = await getSkill(c, args.key)
    if (wantsJson(flags)) emit('remote get', c.base, { skill: view.skillDoc(s) })
    else process.stdout.write(view.skillDetail(s, process.stdout))
    return EXIT.ok
  })
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
      const s = await getSkill(c, args.key)
      // The role of the token the execute call will carry, after any refresh it needs (§10.2).
      const role = tokenRole(await c.ready())
      const cls = classOf(s)
      const refused = gateRefusal(args.key, cls, role)
      if (!json && !flags.quiet)
        process.stderr.write(view.gateLine(s, role, refused !== null, process.stderr, edge))
      if (refused !== null) throw refused
      if (s.scope === 'host' && edge === undefined) {
        throw new UserError(`${args.key} runs on an edge (scope host): give --edge ID (not called)`)
      }
      const params = assembleArgs({
        json: argsJson(flags),
        assignments: flags.arg ?? [],
        schema: paramsSchema(s),
      })
      if (params !== '' && !valid(params)) throw new UserError('the args are not valid JSON (not called)')
      const out = await execute(c, args.key, edge, params)
      const error = out.error
      const failed = error === null ? null : `${args.key} failed on the manager: ${JSON.stringify(error)}`
      if (failed !== null) process.stderr.write(`ongrid-skill: ${view.line(failed, process.stderr)}\n`)
      if (json) {
        let argsDoc: unknown = params === '' ? {} : toText(params)
        try {
          argsDoc = JSON.parse(toText(params))
        } catch {}
        const code = failed === null ? EXIT.ok : REMOTE_EXIT.failed
        const doc = envelope(
          'remote exec',
          code,
          {
            manager: c.base,
            result: null,
            result_text: out.result === null ? null : toText(fromBuffer(out.result)),
            duration_ms: Math.round(out.ms * 1000) / 1000,
            skill: { name: s.key, class: cls, scope: s.scope ?? null, category: s.category ?? null },
            edge_id: edge ?? null,
            role,
            args: argsDoc,
          },
          failed === null ? null : jsonError('remote exec', code, failed, { manager_error: error }),
        )
        process.stdout.write(view.execJson(doc, out.result))
      } else if (error === null) {
        process.stdout.write(view.resultBytes(out.result, process.stdout))
      }
      // A 200 carrying `error` is a failed run.
      return error === null ? EXIT.ok : REMOTE_EXIT.failed
    },
    EXEC_TIMEOUT_MS,
  )
}

// ---------------------------------------------------------------------------------------------
// installed, uninstall, bind, registries

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
    const { wasInstalled: was } = await uninstallPack(c, args.id)
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
  const bindings = bindingsOf(pairs)
  if (pairs.length === 0 && !flags.clear)
    throw new UserError('no SLOT=CREDENTIAL: give the bindings, or --clear to remove them all')
  return withClient(flags, async (c) => {
    await bindPack(c, args.id, bindings)
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
    const { items, devMode } = await registries(c)
    if (flags.json) emit('remote registries', c.base, { registries: items, dev_mode: devMode })
    else process.stdout.write(view.registries(items, devMode, process.stdout))
    return EXIT.ok
  })
}

// ---------------------------------------------------------------------------------------------
// push

async function remotePushWork({ args, flags }: InputOf<typeof RemotePush>): Promise<number> {
  const { pushPrepare } = await import('./remote-push.js')
  const prepared = await pushPrepare(args.path, flags)
  if (prepared.code !== EXIT.ok || prepared.archive === null) return prepared.code
  const { archive, name, cleanup } = prepared
  try {
    const body = await uploadRequest(name, archive)
    return await withClient(
      flags,
      async (c) => {
        const doc = await upload(c, body)
        if (flags.json) {
          emit('remote push', c.base, {
            pack: view.packDoc(doc.pack ?? {}),
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

async function remoteDiffWork({ argv, flags }: InputOf<typeof RemoteDiff>): Promise<number> {
  const { diffManager } = await import('../../core/remote/diff.js')
  const { localSide } = await import('../../core/remote/local.js')
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
