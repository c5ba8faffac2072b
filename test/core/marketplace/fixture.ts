import { generateKeyPairSync } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after } from 'node:test'
import { fromText } from '../../../src/core/go/gostring.js'
import { computePackHash, signatureJSON, signStream } from '../../../src/core/marketplace/signature.js'
import { makeTree, tempRoot } from '../../helpers/tree.js'

export const SKILL = '---\nname: hello\ndescription: Says hello.\n---\nHi\n'

/**
 * Pack dirs under a temp root removed after the file's tests: `pack` any tree, `demo` a claude
 * pack with one skill (and `extra` files), `sign` signs a dir with a fresh P-256 key.
 */
export function packFixtures(prefix: string) {
  const { root, cleanup } = tempRoot(prefix)
  after(cleanup)
  let n = 0
  const pack = (nodes: Parameters<typeof makeTree>[1]): string => {
    const dir = join(root, `p${n++}`)
    mkdirSync(dir)
    makeTree(dir, nodes)
    return dir
  }
  const demo = (id = 'demo', extra: Parameters<typeof makeTree>[1] = {}) =>
    pack({
      '.claude-plugin/plugin.json': JSON.stringify({ id, version: '1.0.0' }),
      'skills/hello/SKILL.md': SKILL,
      ...extra,
    })
  const sign = (dir: string): void => {
    const key = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
    const h = computePackHash(fromText(dir))
    const pem = key.publicKey.export({ type: 'spki', format: 'pem' }).toString()
    writeFileSync(
      join(dir, 'signature.json'),
      signatureJSON(signStream(key.privateKey, h.stream as Buffer), pem),
    )
  }
  /** A fresh name under the root. */
  const fresh = (name: string) => join(root, `${name}${n++}`)
  return { root, pack, demo, sign, fresh }
}
