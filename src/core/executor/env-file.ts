/**
 * Reads an environment to replay: either NUL-separated `NAME=value` records (as in
 * /proc/<pid>/environ of the manager; a repeated name keeps its first value, as Go reads its
 * environment) or dotenv-style lines (`NAME=value`, optional `export `, `#` comments, values
 * optionally in single or double quotes; a repeated name keeps its last value, as a shell would).
 */
export function parseEnvFile(content: Buffer): Record<string, string> {
  // No prototype: a variable may be called `constructor` or `__proto__`.
  const env: Record<string, string> = Object.create(null)
  if (content.includes(0)) {
    for (const rec of content.toString('utf8').split('\0')) {
      const eq = rec.indexOf('=')
      const name = rec.slice(0, eq)
      // A real environ: Go's os.LookupEnv takes the first entry of a repeated name.
      if (eq > 0 && !Object.hasOwn(env, name)) env[name] = rec.slice(eq + 1)
    }
    return env
  }
  for (const rawLine of content.toString('utf8').split(/\r?\n/)) {
    let line = rawLine.trim()
    if (line === '' || line.startsWith('#')) continue
    if (line.startsWith('export ')) line = line.slice(7).trimStart()
    const eq = line.indexOf('=')
    if (eq <= 0) continue
    const name = line.slice(0, eq).trim()
    let value = line.slice(eq + 1).trim()
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0])) {
      const q = value[0]
      value = value.slice(1, -1)
      if (q === '"') value = value.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c))
    }
    env[name] = value
  }
  return env
}
