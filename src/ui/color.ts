/**
 * The one colour policy of every output (lint's stylish, test's spec and live views, audit tail):
 * NO_COLOR (set and not empty) turns colour off, whatever else is set; then FORCE_COLOR decides
 * (`0` or `false` off, anything else on); else colour on a terminal whose TERM is not `dumb`.
 */
export function colorWanted(
  env: NodeJS.ProcessEnv = process.env,
  tty = process.stdout.isTTY === true,
): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false'
  return tty && env.TERM !== 'dumb'
}

/** The colour level FORCE_COLOR asks for (`` and `true` are 1, numbers kept to 1-3), or null. */
export function forcedLevel(env: NodeJS.ProcessEnv = process.env): 1 | 2 | 3 | null {
  const force = env.FORCE_COLOR
  if (force === undefined || force === '0' || force === 'false') return null
  if (force === '' || force === 'true') return 1
  return Math.max(1, Math.min(Number.parseInt(force, 10) || 1, 3)) as 1 | 2 | 3
}
