import { execFileSync } from 'node:child_process'

/** mkfifo(1): Node has no mkfifo. */
export function mkfifoSync(path: string): void {
  execFileSync('mkfifo', [path])
}
