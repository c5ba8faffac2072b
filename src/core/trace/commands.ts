import type { EffectKind } from './effects.js'

/**
 * Commands known to change state: starting one is held against a `safe` skill whatever the trace
 * shows of it, because what they change is often out of the trace's sight (a daemon asked over a
 * socket, a cluster over HTTPS), unless their work is seen as system calls (`seenAs`). One list,
 * each with its reason; matched on the program's base name and, for multi-verb tools, a verb among
 * its arguments.
 */

export interface StateCommand {
  /** The program's base name (`systemctl`). */
  program: string
  /** The verbs that change state (any argument before `--`); none: any use of it. */
  verbs?: readonly string[]
  reason: string
  /**
   * What its changes are seen as in the trace, for commands whose work is system calls of their
   * own process: held to the class through those calls (so `rm` of the run's own scratch is not a
   * finding, and `rm` of a host file is one), not by the command's name.
   */
  seenAs?: EffectKind
}

/** What docker and podman are asked that changes containers or images. */
const CONTAINER_VERBS = [
  'rm',
  'rmi',
  'kill',
  'stop',
  'start',
  'restart',
  'run',
  'exec',
  'create',
  'pull',
  'prune',
  'update',
]

export const STATE_COMMANDS: readonly StateCommand[] = [
  { program: 'rm', seenAs: 'delete', reason: 'deletes files' },
  { program: 'rmdir', seenAs: 'delete', reason: 'deletes directories' },
  { program: 'shred', seenAs: 'delete', reason: 'overwrites and deletes files' },
  { program: 'truncate', seenAs: 'truncate', reason: 'changes file sizes' },
  { program: 'dd', seenAs: 'write', reason: 'writes devices and files' },
  { program: 'mv', seenAs: 'rename', reason: 'moves or renames files' },
  { program: 'chmod', seenAs: 'chmod', reason: 'changes file modes' },
  { program: 'chown', seenAs: 'chown', reason: 'changes file owners' },
  { program: 'chgrp', seenAs: 'chown', reason: 'changes file groups' },
  { program: 'kill', seenAs: 'signal', reason: 'signals processes' },
  { program: 'pkill', seenAs: 'signal', reason: 'signals processes by name' },
  { program: 'killall', seenAs: 'signal', reason: 'signals processes by name' },
  { program: 'reboot', reason: 'restarts the host' },
  { program: 'shutdown', reason: 'stops the host' },
  { program: 'poweroff', reason: 'stops the host' },
  { program: 'halt', reason: 'stops the host' },
  { program: 'mount', seenAs: 'privilege', reason: 'changes the mount table' },
  { program: 'umount', seenAs: 'privilege', reason: 'changes the mount table' },
  { program: 'useradd', reason: 'changes the user database' },
  { program: 'userdel', reason: 'changes the user database' },
  { program: 'usermod', reason: 'changes the user database' },
  { program: 'passwd', reason: 'changes passwords' },
  { program: 'crontab', reason: 'changes scheduled jobs' },
  { program: 'iptables', reason: 'changes the firewall' },
  { program: 'nft', reason: 'changes the firewall' },
  { program: 'sysctl', verbs: ['-w'], reason: 'changes kernel settings' },
  {
    program: 'systemctl',
    verbs: [
      'start',
      'stop',
      'restart',
      'reload',
      'try-restart',
      'reload-or-restart',
      'kill',
      'enable',
      'disable',
      'mask',
      'unmask',
      'daemon-reload',
      'isolate',
      'reboot',
      'poweroff',
      'halt',
    ],
    reason: 'asks systemd to change a unit or the host (over its socket: unseen by the trace)',
  },
  {
    program: 'service',
    reason: 'starts, stops or restarts a service through its init script',
  },
  {
    program: 'docker',
    verbs: CONTAINER_VERBS,
    reason: 'asks the Docker daemon to change containers or images (over its socket: unseen by the trace)',
  },
  {
    program: 'podman',
    verbs: CONTAINER_VERBS,
    reason: 'changes containers or images',
  },
  {
    program: 'kubectl',
    verbs: [
      'delete',
      'apply',
      'create',
      'replace',
      'patch',
      'edit',
      'scale',
      'rollout',
      'drain',
      'cordon',
      'uncordon',
      'taint',
      'label',
      'annotate',
      'set',
      'exec',
    ],
    reason: 'asks the Kubernetes API to change the cluster (over HTTPS: unseen by the trace)',
  },
  {
    program: 'helm',
    verbs: ['install', 'upgrade', 'uninstall', 'delete', 'rollback'],
    reason: 'changes releases in the cluster',
  },
  {
    program: 'apt-get',
    verbs: ['install', 'remove', 'purge', 'upgrade', 'dist-upgrade', 'autoremove'],
    reason: 'installs or removes packages',
  },
  {
    program: 'apt',
    verbs: ['install', 'remove', 'purge', 'upgrade', 'full-upgrade', 'autoremove'],
    reason: 'installs or removes packages',
  },
  {
    program: 'dpkg',
    verbs: ['-i', '--install', '-r', '--remove', '-P', '--purge'],
    reason: 'installs or removes packages',
  },
  {
    program: 'yum',
    verbs: ['install', 'remove', 'erase', 'update', 'upgrade'],
    reason: 'installs or removes packages',
  },
  {
    program: 'dnf',
    verbs: ['install', 'remove', 'erase', 'update', 'upgrade'],
    reason: 'installs or removes packages',
  },
  { program: 'git', verbs: ['push', 'reset', 'clean', 'checkout', 'commit'], reason: 'changes a repository' },
]

const byProgram = new Map(STATE_COMMANDS.map((c) => [c.program, c]))

/** The list's entry a command line matches, or null. */
export function stateCommand(argv: readonly string[], path: string): StateCommand | null {
  const base = (path !== '' ? path : (argv[0] ?? '')).split('/').pop() ?? ''
  const c = byProgram.get(base)
  if (c === undefined) return null
  if (c.verbs === undefined) return c
  // A verb anywhere before `--`: options may take values (`kubectl -n web delete pod x`), which
  // only the tool itself could tell from its verb.
  for (const a of argv.slice(1)) {
    if (a === '--') break
    if (c.verbs.includes(a)) return c
  }
  return null
}
