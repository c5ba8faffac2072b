#!/usr/bin/env node
// Runs the CLI from the compiled tree through oclif alone: no fast path, no cached manifest
// (oclif reads the commands directly). CommonJS (bin/package.json).
const { join } = require('node:path')

import('@oclif/core').then(({ execute }) => execute({ development: true, dir: join(__dirname, '..') }))
