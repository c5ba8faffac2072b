/**
 * The --help examples that name allow-list dirs name them absolute ("$PWD/skills" or /…): the
 * manager skips a relative dir, so an example with one would load nothing and exit 0.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import LoadDirs from '../../src/commands/load-dirs.js'
import Mcp from '../../src/commands/mcp.js'
import Run from '../../src/commands/run.js'

/** The shell words of a command line after `<%= command.id %>` (quotes kept). */
function argsOf(command: string): string[] {
  const after = command.split('<%= command.id %>')[1] ?? ''
  return after.trim() === '' ? [] : after.trim().split(/\s+/)
}

const absolute = (word: string) => /^("\$PWD\/|\/)/.test(word)

test('load-dirs and mcp: every DIR in the examples is absolute', () => {
  for (const cmd of [LoadDirs, Mcp]) {
    const examples = (cmd.examples ?? []) as { command: string }[]
    assert.ok(examples.length > 0)
    for (const { command } of examples) {
      const words = argsOf(command)
      // DIR arguments come before the first flag.
      const end = words.findIndex((w) => w.startsWith('-'))
      for (const dir of end === -1 ? words : words.slice(0, end))
        assert.ok(absolute(dir), `${cmd.id ?? ''}: ${command}`)
    }
  }
})

test('run: every --dirs value in the examples is absolute', () => {
  const examples = (Run.examples ?? []) as { command: string }[]
  let seen = 0
  for (const { command } of examples) {
    const words = argsOf(command)
    words.forEach((w, i) => {
      if (w === '--dirs') {
        seen++
        assert.ok(absolute(words[i + 1] ?? ''), command)
      }
    })
  }
  assert.ok(seen > 0)
})
