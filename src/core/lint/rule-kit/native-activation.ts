import { type GoString, toText, trimSpace } from '../../go/gostring.js'
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

/**
 * The mode as activationMatches compares it: strings.ToLower(strings.TrimSpace(mode)), Go's
 * Unicode white space (U+0085 is space, U+FEFF is not). Only a result of ASCII letters can equal
 * "always" or "keyword", and JS's lowering agrees with Go's on every rune that lowers to one of
 * those letters (A-Z, U+212A KELVIN SIGN); invalid UTF-8 stays unequal either way.
 */
export function managerMode(mode: GoString): string {
  return toText(trimSpace(mode)).toLowerCase()
}
