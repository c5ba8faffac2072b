import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { holdToClass } from '../../../src/core/trace/class-check.js'
import { stateCommand } from '../../../src/core/trace/commands.js'
import { type Effect, effects } from '../../../src/core/trace/effects.js'
import { effectsMismatch, parseEffectPatterns } from '../../../src/core/trace/expect.js'
import { parseTrace } from '../../../src/core/trace/strace-line.js'

const ROOT = '100 1.000000 execve("/p/run.sh", ["/p/run.sh"], 0x1 /* 1 var */) = 0'

/** The effects of a trace made of the entry's start and these lines (pid 100 unless given). */
function of(...lines: string[]): Effect[] {
  const text = [ROOT, ...lines.map((l) => (/^\d+ /.test(l) ? l : `100 1.001000 ${l}`))].join('\n')
  return effects(parseTrace(text).records)
}

const kinds = (es: Effect[]) => es.map((e) => `${e.kind} ${e.path ?? e.address ?? e.target ?? ''}`.trim())

describe('effects', () => {
  test('opens: created new (O_EXCL), truncated, opened for writing; reads are none', () => {
    assert.deepEqual(
      kinds(
        of(
          'openat(AT_FDCWD</w>, "n", O_RDWR|O_CREAT|O_EXCL, 0600) = 3</w/n>',
          'openat(AT_FDCWD</w>, "t", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</w/t>',
          'openat(AT_FDCWD</w>, "a", O_WRONLY|O_CREAT|O_APPEND, 0666) = 3</w/a>',
          'open("/etc/passwd", O_RDONLY|O_CLOEXEC) = 3</etc/passwd>',
          'creat("/w/c", 0644) = 3</w/c>',
          'openat2(AT_FDCWD</w>, "o", {flags=O_WRONLY, resolve=0}, 24) = 3</w/o>',
        ),
      ),
      ['create /w/n', 'truncate /w/t', 'write /w/a', 'truncate /w/c', 'write /w/o'],
    )
  })

  test('the real path behind a descriptor wins over the name given (a symlink, a relative name)', () => {
    const [e] = of('openat(AT_FDCWD</w>, "link", O_WRONLY|O_TRUNC) = 3</etc/real>')
    assert.equal(e.path, '/etc/real')
    const [f] = of('unlinkat(3</w/d>, "x", 0) = 0')
    assert.equal(f.path, '/w/d/x')
  })

  test("a relative name without a dir descriptor is resolved against the process's working dir", () => {
    const es = of(
      'openat(AT_FDCWD</w>, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) = 3</etc/ld.so.cache>',
      'mkdir("a", 0777) = 0',
      'chdir("sub") = 0',
      'mkdir("b", 0777) = 0',
      'fchdir(3</elsewhere>) = 0',
      '100 1.1 clone(child_stack=NULL, flags=SIGCHLD) = 101',
      '101 1.2 unlink("c") = 0',
    )
    assert.deepEqual(
      es.map((e) => e.path),
      ['/w/a', '/w/sub/b', '/elsewhere/c'],
    )
  })

  test('devices, pipes, terminals and descriptors are not host state', () => {
    assert.deepEqual(
      of(
        'openat(AT_FDCWD</w>, "/dev/null", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</dev/null>',
        'openat(AT_FDCWD</w>, "/dev/stdout", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3<pipe:[55]>',
        'openat(AT_FDCWD</w>, "/dev/tty", O_RDWR) = 3</dev/pts/0>',
        'openat(AT_FDCWD</w>, "/proc/self/fd/1", O_WRONLY) = 3<socket:[9]>',
        'ftruncate(1<pipe:[55]>, 0) = 0',
      ),
      [],
    )
  })

  test('failures: kept when the host refused (EACCES, EPERM, EROFS), dropped otherwise', () => {
    const es = of(
      'openat(AT_FDCWD</w>, "/etc/a", O_WRONLY|O_CREAT|O_TRUNC, 0666) = -1 EROFS (Read-only file system)',
      'openat(AT_FDCWD</w>, "/etc/b", O_WRONLY|O_CREAT|O_TRUNC, 0666) = -1 ENOENT (No such file or directory)',
      'unlinkat(AT_FDCWD</w>, "/etc/c", 0) = -1 EACCES (Permission denied)',
    )
    assert.deepEqual(
      es.map((e) => [e.path, e.error]),
      [
        ['/etc/a', 'EROFS'],
        ['/etc/c', 'EACCES'],
      ],
    )
  })

  test('delete, rename, chmod, chown, mkdir, links', () => {
    const es = of(
      'unlink("/w/u") = 0',
      'rmdir("/w/r") = 0',
      'renameat2(AT_FDCWD</w>, "a", AT_FDCWD</w>, "/w/b", RENAME_NOREPLACE) = 0',
      'rename("/w/c", "/w/d") = 0',
      'fchmodat(AT_FDCWD</w>, "/w/m", 0600) = 0',
      'fchmod(3</w/f>, 0755) = 0',
      'chmod("/w/g", 0644) = 0',
      'fchownat(AT_FDCWD</w>, "/w/o", 0, 0, 0) = 0',
      'mkdirat(AT_FDCWD</w>, "dir", 0777) = 0',
      'symlinkat("/t", AT_FDCWD</w>, "l") = 0',
    )
    assert.deepEqual(
      es.map((e) => [e.kind, e.path, e.to ?? e.mode ?? null]),
      [
        ['delete', '/w/u', null],
        ['delete', '/w/r', null],
        ['rename', '/w/a', '/w/b'],
        ['rename', '/w/c', '/w/d'],
        ['chmod', '/w/m', '0600'],
        ['chmod', '/w/f', '0755'],
        ['chmod', '/w/g', '0644'],
        ['chown', '/w/o', null],
        ['create', '/w/dir', null],
        ['create', '/w/l', null],
      ],
    )
  })

  test("the run's own scratch is left out: a new file or a made dir it removed, and what was below it", () => {
    const es = of(
      'openat(AT_FDCWD</w>, "/tmp/tmp.1", O_RDWR|O_CREAT|O_EXCL, 0600) = 3</tmp/tmp.1>',
      'unlinkat(AT_FDCWD</w>, "/tmp/tmp.1", 0) = 0',
      'mkdir("/tmp/d.2", 0700) = 0',
      'openat(AT_FDCWD</w>, "/tmp/d.2/f", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</tmp/d.2/f>',
      'unlinkat(4</tmp/d.2>, "f", 0) = 0',
      'unlinkat(AT_FDCWD</w>, "/tmp/d.2", AT_REMOVEDIR) = 0',
      // Kept: truncated (not made new) then deleted is a host file's deletion; a made dir left behind.
      'openat(AT_FDCWD</w>, "/w/old", O_WRONLY|O_TRUNC) = 3</w/old>',
      'unlink("/w/old") = 0',
      'mkdir("/w/kept", 0777) = 0',
      // A scratch file renamed into place is a real file.
      'openat(AT_FDCWD</w>, "/w/.tmp3", O_WRONLY|O_CREAT|O_EXCL, 0600) = 3</w/.tmp3>',
      'rename("/w/.tmp3", "/w/final") = 0',
    )
    assert.deepEqual(kinds(es), [
      'truncate /w/old',
      'delete /w/old',
      'create /w/kept',
      'create /w/.tmp3',
      'rename /w/.tmp3',
    ])
  })

  test('exec: every program the run started, with its argv (not the entry itself)', () => {
    const es = of(
      '100 1.1 clone(child_stack=NULL, flags=SIGCHLD) = 101',
      '101 1.2 execve("/usr/bin/df", ["df", "-h"], 0x1 /* 1 var */) = 0',
      '101 1.3 execve("/nowhere/x", ["x"], 0x1 /* 1 var */) = -1 ENOENT (No such file or directory)',
    )
    assert.deepEqual(
      es.map((e) => [e.kind, e.path, e.argv, e.pid, e.time_ms]),
      [['exec', '/usr/bin/df', ['df', '-h'], 101, 200]],
    )
  })

  test('signals: to processes the run did not start; its own children, its group and probes are not', () => {
    const es = of(
      '100 1.1 clone(child_stack=NULL, flags=SIGCHLD) = 101',
      'kill(101, SIGTERM) = 0',
      'kill(-101, SIGKILL) = 0',
      'kill(0, SIGTERM) = 0',
      'kill(1, 0) = 0',
      'kill(4242, SIGHUP) = 0',
      'kill(-1, SIGKILL) = 0',
      'tgkill(4343, 4344, SIGUSR1) = 0',
      'kill(4444, SIGTERM) = -1 ESRCH (No such process)',
    )
    assert.deepEqual(
      es.map((e) => [e.target, e.signal]),
      [
        [4242, 'SIGHUP'],
        [-1, 'SIGKILL'],
        [4343, 'SIGUSR1'],
      ],
    )
  })

  test('connect: inet, inet6 and unix addresses; a unix socket that is not there reached nothing', () => {
    const es = of(
      'connect(3<socket:[1]>, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr("10.0.0.1")}, 16) = -1 EINPROGRESS (Operation now in progress)',
      'connect(3<socket:[2]>, {sa_family=AF_INET6, sin6_port=htons(53), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = -1 ECONNREFUSED (Connection refused)',
      'connect(3<socket:[3]>, {sa_family=AF_UNIX, sun_path="/run/docker.sock"}, 110) = 0',
      'connect(3<socket:[4]>, {sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}, 110) = -1 ENOENT (No such file or directory)',
      'connect(3<socket:[5]>, {sa_family=AF_NETLINK, nl_pid=0, nl_groups=00000000}, 12) = 0',
    )
    assert.deepEqual(
      es.map((e) => [e.family, e.address, e.port ?? null, e.error]),
      [
        ['inet', '10.0.0.1', 443, null],
        ['inet6', '::1', 53, 'ECONNREFUSED'],
        ['unix', '/run/docker.sock', null, null],
      ],
    )
  })

  test('privilege and namespace changes', () => {
    const es = of(
      'setuid(0) = 0',
      'capset({version=_LINUX_CAPABILITY_VERSION_3, pid=0}, {effective=0, permitted=0, inheritable=0}) = 0',
      'mount("none", "/mnt", "tmpfs", 0, NULL) = -1 EPERM (Operation not permitted)',
      'unshare(CLONE_NEWNS) = 0',
      'setresgid(-1, 0, -1) = -1 EINVAL (Invalid argument)',
    )
    assert.deepEqual(
      es.map((e) => [e.syscall, e.path ?? null, e.error]),
      [
        ['setuid', null, null],
        ['capset', null, null],
        ['mount', '/mnt', 'EPERM'],
        ['unshare', null, null],
      ],
    )
  })
})

describe('held to the class', () => {
  const write = of('openat(AT_FDCWD</w>, "/etc/motd", O_WRONLY|O_TRUNC) = 3</etc/motd>')
  const reads = of(
    '100 1.2 clone(child_stack=NULL, flags=SIGCHLD) = 101',
    '101 1.3 execve("/usr/bin/df", ["df"], 0x1 /* 1 var */) = 0',
  )

  test('safe: each change is an error naming the effect and the syscall', () => {
    const f = holdToClass('safe', write)
    assert.equal(f.length, 1)
    assert.equal(f[0].severity, 'error')
    assert.equal(f[0].effect, 0)
    assert.match(f[0].message, /truncate \/etc\/motd \(openat, pid 100\)/)
    assert.deepEqual(holdToClass('safe', reads), [])
  })

  test('safe: a command known to change state is an error by its name, with its reason', () => {
    const es = of(
      '101 1.3 execve("/usr/bin/systemctl", ["systemctl", "restart", "nginx"], 0x1 /* 1 var */) = 0',
      '102 1.4 execve("/usr/bin/systemctl", ["systemctl", "status", "nginx"], 0x1 /* 1 var */) = 0',
      '103 1.5 execve("/usr/local/bin/kubectl", ["kubectl", "-n", "x", "delete", "pod", "p"], 0x1 /* 1 var */) = 0',
    )
    const f = holdToClass('safe', es)
    // status changes nothing; kubectl's verb is found past an option's value.
    assert.deepEqual(
      f.map((x) => x.effect),
      [0, 2],
    )
    assert.match(f[0].message, /asks systemd/)
  })

  test('commands whose changes are their own system calls are held through those calls', () => {
    assert.equal(stateCommand(['rm', '-f', '/tmp/x'], '/usr/bin/rm')?.seenAs, 'delete')
    const es = of('101 1.3 execve("/usr/bin/rm", ["rm", "-f", "/tmp/x"], 0x1 /* 1 var */) = 0')
    assert.deepEqual(holdToClass('safe', es), [])
  })

  test('mutating: an info finding when the run changed nothing; none when it did', () => {
    const f = holdToClass('mutating', reads)
    assert.equal(f.length, 1)
    assert.equal(f[0].severity, 'info')
    assert.match(f[0].message, /class "safe" would let/)
    assert.deepEqual(holdToClass('mutating', write), [])
    assert.deepEqual(holdToClass('dangerous', write), [])
  })
})

describe('expect.effects', () => {
  const es = of(
    'openat(AT_FDCWD</w>, "/var/log/app/x.log", O_WRONLY|O_CREAT|O_APPEND, 0666) = 3</var/log/app/x.log>',
    '101 1.3 execve("/usr/bin/df", ["df", "-h", "/"], 0x1 /* 1 var */) = 0',
  )

  test('every effect matched and every pattern used: no difference', () => {
    const p = parseEffectPatterns([
      { kind: 'write', path: '/var/log/app' },
      { kind: 'exec', argv_prefix: ['df'] },
    ])
    assert.ok('patterns' in p)
    assert.deepEqual(effectsMismatch(p.patterns, es), [])
  })

  test('an effect no pattern allows (+) and a pattern nothing matched (-)', () => {
    const p = parseEffectPatterns([{ kind: 'exec', argv: ['df', '-h', '/'] }, { kind: 'delete' }])
    assert.ok('patterns' in p)
    assert.deepEqual(effectsMismatch(p.patterns, es), [
      '+ write /var/log/app/x.log (openat, pid 100)',
      '- {"kind":"delete"}',
    ])
  })

  test('bad patterns are said with their pointer', () => {
    assert.deepEqual(parseEffectPatterns({}), {
      problems: [['', '`effects` must be an array of {"kind", …} patterns']],
    })
    const r = parseEffectPatterns([{ kind: 'wrote', port: 70000, argv: 'df', extra: 1 }])
    assert.ok('problems' in r)
    assert.deepEqual(
      r.problems.map(([at]) => at),
      ['/0/extra', '/0/kind', '/0/port', '/0/argv'],
    )
  })
})
