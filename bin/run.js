#!/usr/bin/env node
// Cold start matters: `--version` is answered here, and plain invocations of the commands
// people run in loops go through the fast path (dist/cli/fast.js), which runs their action
// without loading oclif. Everything else — help, errors in flags — is oclif's.
const argv = process.argv.slice(2)
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === 'version')) {
  const { readFileSync } = await import('node:fs')
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  process.stdout.write(
    `${pkg.name}/${pkg.version} ${process.platform}-${process.arch} node-${process.version}\n`,
  )
} else {
  const { tryFast } = await import('../dist/cli/fast.js')
  if (!(await tryFast(argv, new URL('../oclif.manifest.json', import.meta.url)))) {
    const { execute } = await import('@oclif/core')
    await execute({ dir: import.meta.url })
  }
}
