#!/usr/bin/env node
// Runs the CLI from the compiled tree without the cached manifest (oclif reads commands directly).
const { execute } = await import('@oclif/core')
await execute({ development: true, dir: import.meta.url })
