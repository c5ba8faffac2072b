import { didYouMean, meanHint } from '../core/suggest.js'
import { EXIT, UserError } from './errors.js'

/**
 * The error for a command that does not exist, as typed (`lnt`, `audit tial`: oclif's ids join
 * words with `:`), with the nearest command as its hint. `ids` are oclif's command ids, `topics`
 * its topic names.
 */
export function unknownCommand(
  words: string[],
  ids: Iterable<string>,
  topics: Iterable<string>,
  bin: string,
): UserError {
  const known = new Set(ids)
  // A command followed by words it takes no argument for (oclif joins them into the id).
  for (let k = words.length - 1; k >= 1; k--) {
    const id = words.slice(0, k).join(':')
    if (known.has(id)) {
      return new UserError(
        `unexpected argument: ${JSON.stringify(words[k])}`,
        EXIT.usage,
        `see \`${bin} ${words.slice(0, k).join(' ')} --help\``,
      )
    }
  }
  const typed = words.slice(0, [...topics].includes(words[0] ?? '') ? 2 : 1).join(' ')
  const names = [...known].filter((id) => !id.startsWith('_')).map((id) => id.replaceAll(':', ' '))
  return new UserError(
    `unknown command "${typed}"`,
    EXIT.usage,
    meanHint(didYouMean(typed, names)) ?? `see \`${bin} --help\` for the commands`,
  )
}
