import { firstLine } from '../core/errors.js'
import { didYouMean, meanHint } from '../core/suggest.js'
import { UserError } from './errors.js'

/**
 * oclif's parse errors in the house style: one line of ours, one hint line, no `See more help
 * with --help` and no lists of lines. The errors are told apart by their class names (the
 * parser's classes are not exported); anything else is left as it is.
 */
export interface CommandShape {
  id?: string
  bin: string
  flags: Record<string, { name?: string; char?: string; options?: readonly string[] } | undefined>
}

export function fromParseError(
  err: Error & { flags?: string[]; args?: { name?: string }[] | string[] },
  cmd: CommandShape,
): UserError | undefined {
  const usage = `${cmd.bin}${cmd.id ? ` ${cmd.id.replaceAll(':', ' ')}` : ''} --help`
  const seeHelp = `see \`${usage}\``
  switch (err.constructor?.name) {
    case 'NonExistentFlagsError': {
      const given = (err.flags ?? [])[0] ?? ''
      const names = Object.keys(cmd.flags).map((n) => `--${n}`)
      const near = given.startsWith('--') ? didYouMean(given.split('=')[0], names) : undefined
      return new UserError(`unknown flag ${given}`, undefined, meanHint(near, false) ?? seeHelp)
    }
    case 'FlagInvalidOptionError': {
      const m = /^Expected --([^=]+)=([\s\S]*) to be one of: (.*)\n/.exec(err.message)
      if (!m) return undefined
      const [, flag, input, list] = m
      const options = cmd.flags[flag]?.options ?? list.split(', ')
      return new UserError(
        `--${flag}: ${JSON.stringify(input)} is not one of ${options.join(', ')}`,
        undefined,
        meanHint(didYouMean(input, options)),
      )
    }
    case 'ArgInvalidOptionError': {
      const m = /^Expected ([\s\S]*) to be one of: (.*)\n/.exec(err.message)
      if (!m) return undefined
      const [, input, list] = m
      const options = list.split(', ')
      return new UserError(
        `${JSON.stringify(input)} is not one of ${options.join(', ')}`,
        undefined,
        meanHint(didYouMean(input, options)) ?? seeHelp,
      )
    }
    case 'UnexpectedArgsError': {
      const args = (err.args ?? []) as string[]
      return new UserError(
        `unexpected argument${args.length === 1 ? '' : 's'}: ${args.map((a) => JSON.stringify(a)).join(', ')}`,
        undefined,
        seeHelp,
      )
    }
    case 'RequiredArgsError': {
      const names = ((err.args ?? []) as { name?: string }[]).map((a) => a.name ?? '?')
      return new UserError(
        `missing argument${names.length === 1 ? '' : 's'}: ${names.map((n) => n.toUpperCase()).join(', ')}`,
        undefined,
        seeHelp,
      )
    }
    case 'FailedFlagValidationError':
    case 'ViolatedFlagConstraintError': {
      // "The following error occurred:\n  --a=x cannot also be provided when using --b"
      const reasons = err.message
        .split('\n')
        .slice(1)
        .map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').trim())
        .filter((l) => l !== '' && !/^See more help with/.test(l))
        // oclif's "--no-config=true cannot also be provided when using --config": the flags as typed.
        .map((l) => {
          const m = /^(--[\w-]+)(?:=\S*)? cannot also be provided when using (--[\w-]+)$/.exec(l)
          if (m) return `${m[2]} and ${m[1]} cannot be used together`
          // "Missing required flag key", said as a missing argument is.
          const r = /^Missing required flag ([\w-]+)$/.exec(l)
          return r ? `missing flag: --${r[1]}` : l
        })
      return new UserError(reasons.join('; ') || 'invalid flags', undefined, seeHelp)
    }
    case 'CLIParseError': {
      // e.g. "Flag --x expects a value"
      const first = firstLine(err.message)
      return new UserError(first.charAt(0).toLowerCase() + first.slice(1), undefined, seeHelp)
    }
    default: {
      // The parser's own CLIError: "Flag --timeout expects a value", or for a flag with options
      // "Flag --format expects one of these values: stylish, json".
      const m = /^Flag (--\S+) expects (?:a value|one of these values: (.*))/.exec(err.message)
      if (!m) return undefined
      return new UserError(`${m[1]} needs a value${m[2] ? `: one of ${m[2]}` : ''}`, undefined, seeHelp)
    }
  }
}
