/** hash/crc32 with the IEEE table: `update` continues a checksum over more bytes. */

let crcTable: Int32Array | null = null

/** CRC-32 (IEEE), continued from `crc`. */
export function update(crc: number, b: Buffer): number {
  if (crcTable === null) {
    crcTable = new Int32Array(256)
    for (let n = 0; n < 256; n++) {
      let c = n
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
      crcTable[n] = c
    }
  }
  let c = ~crc
  for (let i = 0; i < b.length; i++) c = crcTable[(c ^ b[i]) & 0xff] ^ (c >>> 8)
  return ~c >>> 0
}
