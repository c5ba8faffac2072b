#!/usr/bin/env node
// Fast path: `--version` needs no command machinery, so answer it before loading oclif.
const argv = process.argv.slice(2)
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === 'version')) {
  const { readFileSync } = await import('node:fs')
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  process.stdout.write(
    `${pkg.name}/${pkg.version} ${process.platform}-${process.arch} node-${process.version}\n`,
  )
} else {
  const { execute } = await import('@oclif/core')
  await execute({ dir: import.meta.url })
}
