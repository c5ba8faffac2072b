/**
 * The subprocess executor (core/executor/executor.ts) against real Go: the same entries run by our
 * execute() and by the harness's execute op (test/differential/go/execute.go: the manager's
 * Execute written with this Go's os/exec), comparing the error text byte for byte, stdout, and
 * what the child received (its environment, read from /proc, and its stdin).
 *
 * Covered: start failures (fork/exec … permission denied for a `#!` naming a directory or a
 * non-executable file, a FIFO entry, exec format error, a missing interpreter), the entry
 * checks, params (depth 10000 and 10001, Unicode white space, a BOM), the int64 wrap of
 * timeout_seconds and its sub-second timeouts, the timeout check winning after an early exit,
 * EPIPE on stdin ignored, the stderr tail with invalid UTF-8, env_allow (Unicode TrimSpace,
 * `null` after duplicate keys, names with `=`), and — when the harness's Go has Cmd.WaitDelay
 * (1.20 and later; the manager's is 1.25) — the WaitDelay over the params copy.
 */
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { execute } from '../../src/core/executor/executor.js'
import { fromBuffer, fromText, type GoString, toText } from '../../src/core/go/gostring.js'
import { durationString } from '../../src/core/go/time/duration.js'
import { buildSubprocessSkill } from '../../src/core/loader/build.js'
import { decodeManifest } from '../../src/core/loader/manifest.js'
import { makeTree, tempRoot } from '../helpers/tree.js'
import { b64, closeHarness, GO_MISSING, getHarness, getNewerHarness, unb64OrNull } from './harness.js'

let R = ''
let cleanup = () => {}
before(() => {
  ;({ root: R, cleanup } = tempRoot('ongrid-diff-exec-'))
  // Every entry leaves what it received beside itself: got.env (its environment, NUL-separated)
  // and got.in (its stdin).
  const RECORD = '#!/bin/sh\ncat /proc/$$/environ > "$(dirname "$0")/got.env"\n'
  makeTree(R, {
    'ok/skill.json': '{}',
    'ok/run.sh': { exec: `${RECORD}cat > "$(dirname "$0")/got.in"\necho '{"ok":true}'\n` },
    'echo/run.sh': { exec: '#!/bin/sh\ncat\n' },
    'adir/x': '',
    'plain.txt': '#!/bin/sh\n',
    'shebang_dir/run.sh': { exec: `#!${R}/adir\n` },
    'shebang_noexec/run.sh': { exec: `#!${R}/plain.txt\n` },
    'shebang_missing/run.sh': { exec: '#!/nonexistent/interp\n' },
    'no_shebang/run.sh': { exec: 'echo hi\n' },
    'empty_shebang/run.sh': { exec: '#!\n' },
    'not_exec/run.sh': { file: '#!/bin/sh\necho {}\n', mode: 0o644 },
    'fails/run.sh': {
      exec: `#!/bin/sh\nprintf 'start\\377\\376'; head -c 5000 /dev/zero | tr '\\0' x >&2; printf ' end\\303\\n  ' >&2; exit 3\n`,
    },
    'bad_json/run.sh': { exec: `#!/bin/sh\nprintf '{"a":\\377 %0300d' 0\n` },
    'slow/run.sh': { exec: '#!/bin/sh\nsleep 1\necho {}\n' },
    // Exits at once, but a background child holds stdout past the (sub-second) deadline.
    'early_exit/run.sh': { exec: '#!/bin/sh\n(sleep 1.5) &\necho {}\nexit 0\n' },
    // Never reads stdin: a large params write gets EPIPE, which Go ignores.
    'closes_stdin/run.sh': { exec: '#!/bin/sh\nexec 0<&-\necho {}\n' },
    // Exits cleanly while a background child keeps stdin open without reading it.
    'holds_stdin/run.sh': { exec: '#!/bin/sh\n(sleep 3 <&0) &\necho bg >&2\necho {}\n' },
  })
  execFileSync('mkfifo', ['-m', '0755', join(R, 'fifo')])
})
after(async () => {
  await closeHarness()
  cleanup()
})

interface Case {
  name: string
  entry: GoString
  /** The manifest (timeout_seconds, env_allow) as the loader decodes it. */
  manifest?: string
  params?: GoString | null
  environ?: Record<string, string>
  /** Compare what the child received (got.env and got.in beside the entry). */
  received?: boolean
  /** Needs Go's Cmd.WaitDelay (Go 1.20 and later). */
  waitDelay?: boolean
}

const deep = (d: number) => `${'['.repeat(d)}${']'.repeat(d)}`
const ok = () => `${R}/ok/run.sh`

function cases(): Case[] {
  const timeout = (n: string) => `{"name":"t","description":"d","entry":"run.sh","timeout_seconds":${n}}`
  return [
    { name: 'relative entry', entry: 'run.sh' },
    { name: 'empty entry', entry: '' },
    { name: 'missing entry', entry: `${R}/missing/run.sh` },
    { name: 'entry is a dir', entry: `${R}/adir` },
    { name: 'entry not executable', entry: `${R}/not_exec/run.sh` },
    { name: '#! naming a directory', entry: `${R}/shebang_dir/run.sh` },
    { name: '#! naming a non-executable file', entry: `${R}/shebang_noexec/run.sh` },
    { name: '#! naming a missing interpreter', entry: `${R}/shebang_missing/run.sh` },
    { name: 'no #! line', entry: `${R}/no_shebang/run.sh` },
    { name: 'an empty #! line', entry: `${R}/empty_shebang/run.sh` },
    { name: 'a FIFO entry', entry: `${R}/fifo` },
    { name: 'exit 3, stderr cut to its tail, invalid UTF-8', entry: `${R}/fails/run.sh` },
    { name: 'stdout not JSON, invalid UTF-8', entry: `${R}/bad_json/run.sh` },
    { name: 'params nested 10000 deep', entry: `${R}/echo/run.sh`, params: deep(10000) },
    { name: 'params nested 10001 deep', entry: `${R}/echo/run.sh`, params: deep(10001) },
    { name: 'no params', entry: ok(), params: null, received: true },
    { name: 'Unicode white space only', entry: ok(), params: ' \xc2\xa0\xe3\x80\x80\n', received: true },
    { name: 'a BOM before the params', entry: ok(), params: '\xef\xbb\xbf{}' },
    { name: 'NEL around the params', entry: ok(), params: '\xc2\x85{"a":1}\xc2\x85' },
    {
      name: 'timeout_seconds wraps in int64 to 290.448384ms',
      entry: `${R}/slow/run.sh`,
      manifest: timeout('18446744074'),
    },
    { name: 'timeout_seconds wraps to 709.551616ms', entry: ok(), manifest: timeout('-18446744073') },
    { name: 'timeout_seconds wraps negative: 30s', entry: ok(), manifest: timeout('9223372037') },
    {
      name: 'the timeout check wins after an early exit',
      entry: `${R}/early_exit/run.sh`,
      manifest: timeout('18446744074'),
    },
    {
      name: 'EPIPE on stdin is ignored',
      entry: `${R}/closes_stdin/run.sh`,
      params: `"${'x'.repeat(1 << 20)}"`,
    },
    {
      name: 'env_allow: Unicode TrimSpace, = in a name, empty and missing names',
      entry: ok(),
      manifest:
        '{"name":"t","description":"d","entry":"run.sh","env_allow":[" A\\u00a0","\\u2003B","C=D","","MISSING","\\ufeffE","E","A"]}',
      environ: { A: 'a', B: 'b é', 'C=D': 'x', C: 'D=y', E: '', MISSING_NOT: '1' },
      received: true,
    },
    {
      name: 'env_allow: null keeps the element after duplicate keys',
      entry: ok(),
      manifest:
        '{"name":"t","description":"d","entry":"run.sh","env_allow":["A","B","C"],"env_allow":["X"],"env_allow":["Y",null,null]}',
      environ: { A: '1', B: '2', C: '3', X: '4', Y: '5' },
      received: true,
    },
    {
      name: 'WaitDelay over the params copy',
      entry: `${R}/holds_stdin/run.sh`,
      params: `"${'x'.repeat(1 << 20)}"`,
      waitDelay: true,
    },
  ]
}

const DEFAULT_MANIFEST = '{"name":"t","description":"d","entry":"run.sh"}'

/** What the child left beside its entry (null: it never ran), then cleared for the next run. */
function received(entry: GoString): { env: string[]; stdin: string } | null {
  const dir = toText(entry).replace(/\/[^/]*$/, '')
  if (!existsSync(join(dir, 'got.env'))) return null
  const read = (f: string) => {
    const b = readFileSync(join(dir, f))
    rmSync(join(dir, f))
    return fromBuffer(b)
  }
  return {
    env: read('got.env')
      .split('\0')
      .filter((l) => l !== ''),
    stdin: read('got.in'),
  }
}

test('the executor against Go’s os/exec', async (t) => {
  const go = await getHarness()
  if (!go) return t.skip(GO_MISSING)
  const mismatches: string[] = []
  for (const c of cases()) {
    const manifestText = fromText(c.manifest ?? DEFAULT_MANIFEST)
    const parsed = decodeManifest(manifestText)
    assert.equal(parsed.err, null, c.name)
    // The loader's build (against a pack that has an entry), then the case's entry.
    const built = buildSubprocessSkill(parsed.manifest, `${R}/ok/skill.json`, R)
    assert.ok(built.ok, c.name)
    const skill = { ...built.value, key: 't', entry: c.entry }
    let asked = go
    let probe = await asked.one({ op: 'execute', data: b64(manifestText), run: false })
    if (c.waitDelay && !probe.waitdelay) {
      // Go 1.19's exec.Cmd has no WaitDelay: asked of the newer toolchain, if one is given.
      const n = await getNewerHarness()
      if (!n) {
        t.diagnostic(
          `${c.name}: not asked of ${go.goVersion}, whose exec.Cmd has no WaitDelay (Go 1.20+; set ONGRID_GO_NEWER)`,
        )
        continue
      }
      asked = n
      probe = await asked.one({ op: 'execute', data: b64(manifestText), run: false })
      assert.ok(probe.waitdelay, `${asked.goVersion} has no WaitDelay`)
      t.diagnostic(`${c.name}: asked of ${asked.goVersion}`)
    }
    const check = (what: string, want: unknown, got: unknown) => {
      try {
        assert.deepEqual(got, want)
      } catch {
        mismatches.push(`${c.name}: ${what}\n  Go:   ${JSON.stringify(want)}\n  ours: ${JSON.stringify(got)}`)
      }
    }
    check('timeout', unb64OrNull(probe.timeout), durationString(skill.timeoutNs))

    const environ = c.environ ?? {}
    const params = c.params === undefined ? '{}' : c.params
    const answer = await asked.one({
      op: 'execute',
      data: b64(manifestText),
      run: true,
      path: b64(c.entry),
      s: b64('t'),
      params: params === null ? null : b64(params),
      environ: Object.entries(environ).map(([k, v]) => b64(fromText(`${k}=${v}`))),
    })
    const goGot = c.received ? received(c.entry) : null
    const ours = await execute(skill, params, { environ })
    const ourGot = c.received ? received(c.entry) : null
    check('error', unb64OrNull(answer.err), ours.error)
    if (answer.stdout !== undefined) check('stdout', unb64OrNull(answer.stdout), fromBuffer(ours.stdout))
    if (c.received) {
      check('ran', goGot !== null, ourGot !== null)
    }
    if (goGot && ourGot) {
      check('environment received', [...goGot.env].sort(), [...ourGot.env].sort())
      check('stdin received', goGot.stdin, ourGot.stdin)
    }
  }
  assert.deepEqual(mismatches, [], mismatches.join('\n'))
})
