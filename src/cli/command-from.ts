import { Args, Flags, type Interfaces } from '@oclif/core'
import { BaseCommand } from './base.js'
import type { Action, ActionInput } from './errors.js'
import { examples } from './examples.js'
import type { ArgSpec, CommandSpec, FlagSpec } from './spec.js'
import { helpDescription } from './spec.js'
import { FAST_ACTIONS } from './specs/index.js'
import { OCLIF_ACTIONS } from './specs/oclif-actions.js'

/** A spec's flag as oclif defines it. */
function oclifFlag(f: FlagSpec) {
  // oclif's types are narrower (a char is a letter); the specs' values are oclif's own.
  const { type, ...rest } = f
  if (type === 'boolean') return Flags.boolean(rest as Parameters<typeof Flags.boolean>[0])
  if (type === 'option') return Flags.option(rest as Parameters<typeof Flags.option>[0])()
  return Flags.string(rest as Parameters<typeof Flags.string>[0])
}

function oclifArg(a: ArgSpec) {
  return Args.string({
    ignoreStdin: true,
    ...a,
    options: a.options === undefined ? undefined : [...a.options],
  })
}

/**
 * The oclif class of a command, made from its spec: help, args, flags and the manifest come from
 * the spec; `run()` calls the action cli/specs/index.ts or oclif-actions.ts names for it.
 */
export function commandFrom(spec: CommandSpec) {
  const flags: Interfaces.FlagInput = {}
  for (const [name, f] of Object.entries(spec.flags ?? {})) flags[name] = oclifFlag(f)
  const args: Interfaces.ArgInput = {}
  for (const [name, a] of Object.entries(spec.args ?? {})) args[name] = oclifArg(a)
  const loadAction = Object.hasOwn(FAST_ACTIONS, spec.id)
    ? FAST_ACTIONS[spec.id]
    : Object.hasOwn(OCLIF_ACTIONS, spec.id)
      ? OCLIF_ACTIONS[spec.id]
      : undefined
  const Command = class extends BaseCommand {
    static override summary = spec.summary
    static override description = helpDescription(spec)
    static override examples = examples(...spec.examples)
    static override strict = spec.strict ?? true
    static override enableJsonFlag = spec.json ?? true
    static override args = args
    static override flags = flags

    async run(): Promise<void> {
      if (loadAction === undefined) throw new Error(`${spec.id}: no action`)
      const action = (await loadAction()) as Action<ActionInput<object, object>>
      await this.runAction(action, await this.parse(Command))
    }
  }
  return Command
}
