import type { Decoded } from '../../native/fields.js'
import { decodedField, stringField } from '../../native/fields.js'
import type { NativeContext } from '../context.js'

/** The activation the manager uses: metadata.ongrid.activation when its mode is set, else the top-level one. */
export function effectiveActivation(
  ctx: NativeContext,
): { mode?: Decoded & { k: 'string' }; keywords?: Decoded; where: string } | null {
  const skill = ctx.parse?.skill ?? null
  if (!skill || ctx.parse?.error) return null
  const ongrid = stringField(skill, 'metadata', 'ongrid', 'activation', 'mode')
  if (ongrid && ongrid.value !== '') {
    return {
      mode: ongrid,
      keywords: decodedField(skill, 'metadata', 'ongrid', 'activation', 'keywords'),
      where: 'metadata.ongrid.activation',
    }
  }
  return {
    mode: stringField(skill, 'activation', 'mode'),
    keywords: decodedField(skill, 'activation', 'keywords'),
    where: 'activation',
  }
}
