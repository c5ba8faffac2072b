/**
 * Whose process is at the other end of a TCP connection on 127.0.0.1. Any local user can connect
 * to a loopback port; a server that acts as its user (`mcp --http` runs skills) serves only
 * connections from that user's processes. Linux says who owns each socket in /proc/net/tcp: the
 * client's end of the connection is the line whose local port is the client's and whose remote
 * port is the server's, and its `uid` column is the socket owner's.
 */
import { readFileSync } from 'node:fs'

/**
 * The uid owning the client end of the loopback connection from `clientPort` to `serverPort`:
 * undefined where there is no /proc/net/tcp to ask (not Linux), null when no such connection is
 * listed (it has ended, or it is not from this host's network namespace).
 */
export function loopbackPeerUid(
  clientPort: number,
  serverPort: number,
  read: () => string = () => readFileSync('/proc/net/tcp', 'latin1'),
): number | null | undefined {
  let table: string
  try {
    table = read()
  } catch {
    return undefined
  }
  for (const line of table.split('\n').slice(1)) {
    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
    const f = line.trim().split(/\s+/)
    if (f.length < 8) continue
    if (port(f[1] as string) === clientPort && port(f[2] as string) === serverPort) {
      const uid = Number(f[7])
      return Number.isInteger(uid) ? uid : null
    }
  }
  return null
}

const port = (address: string) => Number.parseInt(address.slice(address.indexOf(':') + 1), 16)
