// The licenses of npm packages bundled into the build's files (scripts/vendor.mjs, scripts/bundle.mjs):
// the package ships those packages' code without their package dirs, so it ships their license texts.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** The npm packages whose files an esbuild metafile lists, added to `into` (by package dir). */
export function packagesOf(metafile, bundle, into) {
  for (const input of Object.keys(metafile.inputs)) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)
    if (!m) continue
    const dir = join(process.cwd(), m[1])
    let p = into.get(dir)
    if (!p) {
      const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
      p = {
        dir,
        name: json.name,
        version: json.version,
        license: json.license ?? 'unknown',
        author: typeof json.author === 'object' ? json.author?.name : json.author,
        bundles: [],
      }
      into.set(dir, p)
    }
    if (!p.bundles.includes(bundle)) p.bundles.push(bundle)
  }
}

/** One file: each package of `packages` (from packagesOf) with its license text (and NOTICE, if any). */
export function writeLicenses(file, what, packages) {
  const texts = [...packages.values()]
    .sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version))
    .map((p) => {
      const name = readdirSync(p.dir).find((f) => /^(licen[cs]e|copying)/i.test(f))
      const text = name
        ? readFileSync(join(p.dir, name), 'utf8').trim()
        : `(no license file in the package; its package.json: license ${p.license}${p.author ? `, author ${p.author}` : ''})`
      const notice = readdirSync(p.dir).find((f) => /^notice/i.test(f))
      const more = notice ? `\n\n${readFileSync(join(p.dir, notice), 'utf8').trim()}` : ''
      return `${p.name}@${p.version} (${p.license}), in ${p.bundles.sort().join(', ')}\n\n${text}${more}\n`
    })
  writeFileSync(file, `${what}\n\n${texts.join(`\n${'-'.repeat(72)}\n\n`)}`)
}
