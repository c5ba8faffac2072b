import assert from 'node:assert/strict'
import { connect, createServer, type Socket } from 'node:net'
import { test } from 'node:test'
import { loopbackPeerUid } from '../../src/mcp/loopback-peer.js'

const TABLE = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0000000000000000 100 0 0 10 0
   1: 0100007F:1F90 0100007F:D431 01 00000000:00000000 00:00000000 00000000     0        0 2 1 0000000000000000 20 4 30 10 -1
   2: 0100007F:D431 0100007F:1F90 01 00000000:00000000 00:00000000 00000000 65534        0 3 1 0000000000000000 20 4 30 10 -1
`

test('the uid of the client end: local port the client’s, remote port the server’s', () => {
  assert.equal(
    loopbackPeerUid(0xd431, 0x1f90, () => TABLE),
    65534,
  )
  // The server's own end of it, or a connection that is not listed: not found.
  assert.equal(
    loopbackPeerUid(0x1f90, 0xd431, () => TABLE),
    0,
  )
  assert.equal(
    loopbackPeerUid(1234, 0x1f90, () => TABLE),
    null,
  )
  // No table to read (not Linux): undefined, unknown.
  assert.equal(
    loopbackPeerUid(1, 2, () => {
      throw new Error('ENOENT')
    }),
    undefined,
  )
})

test('a real loopback connection of this process: this user', {
  skip: process.platform !== 'linux' && 'Linux only',
}, async () => {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as { port: number }).port
  const accepted = new Promise<Socket>((r) => server.once('connection', r))
  const client = connect(port, '127.0.0.1')
  const s = await accepted
  assert.equal(loopbackPeerUid(s.remotePort as number, port), process.getuid?.())
  client.destroy()
  server.close()
})
