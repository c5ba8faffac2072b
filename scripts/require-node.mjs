// `npm test` and `npm run build` on a Node older than the package supports: one line naming the
// version and how to get a supported one, exit 2 (not the dozens of failures it would otherwise
// cause). The lower bound is package.json's `engines.node` (">=MAJOR.MINOR").
import { readFileSync } from 'node:fs'

const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
const m = /^>=(\d+)\.(\d+)/.exec(engines?.node ?? '')
if (m !== null) {
  const [major, minor] = process.versions.node.split('.').map(Number)
  const want = [Number(m[1]), Number(m[2])]
  if (major < want[0] || (major === want[0] && minor < want[1])) {
    process.stderr.write(
      `ongrid-skill: Node ${process.versions.node} is older than ${want.join('.')} (package.json "engines"): ` +
        `export PATH="$(.ci/node-line.sh 24):$PATH" puts Node 24 first\n`,
    )
    process.exit(2)
  }
}
