import { Box, type Key, Text } from 'ink'

/**
 * The keys of one input chunk, one by one. A terminal delivers what arrives together (a held
 * Backspace, a paste, Ctrl-U and what follows it) as one chunk, which ink hands over as one
 * `input` with no key flags: each character is made the key it is. Escape sequences (arrows)
 * and single keys pass as they are.
 */
export function splitChunk(input: string, key: Key): [string, Key][] {
  if ([...input].length <= 1 || input.startsWith('\x1b')) return [[input, key]]
  const plain: Key = {
    ...key,
    return: false,
    backspace: false,
    delete: false,
    ctrl: false,
    meta: false,
    tab: false,
  }
  return [...input].map((ch): [string, Key] => {
    if (ch === '\r' || ch === '\n') return ['', { ...plain, return: true }]
    if (ch === '\x7f' || ch === '\b') return ['', { ...plain, backspace: true }]
    if (ch === '\t') return ['', { ...plain, tab: true }]
    const code = ch.codePointAt(0) ?? 0
    // Ctrl-A … Ctrl-Z arrive as 0x01 … 0x1a: ink names them by their letter, with ctrl set.
    if (code >= 1 && code <= 26) return [String.fromCharCode(code + 96), { ...plain, ctrl: true }]
    return [ch, plain]
  })
}

/**
 * A one-line text field's keys: typing appends, Backspace deletes, Ctrl-U clears, Enter
 * submits. Returns the new value, 'submit', or null for keys it ignores.
 */
export function editText(value: string, input: string, key: Key): string | 'submit' | null {
  if (key.return) return 'submit'
  if (key.backspace || key.delete) return value.slice(0, -1)
  if (key.ctrl && input === 'u') return ''
  if (key.ctrl || key.meta || key.escape || key.tab || key.upArrow || key.downArrow) return null
  const text = input.replace(/[\x00-\x1f\x7f]/g, '')
  return text === '' ? null : value + text
}

/** A list's keys: ↑/↓ (or k/j) move, wrapping; Enter picks. */
export function moveSelection(
  index: number,
  length: number,
  input: string,
  key: Key,
): number | 'submit' | null {
  if (key.return) return 'submit'
  if (key.upArrow || input === 'k') return (index - 1 + length) % length
  if (key.downArrow || input === 'j') return (index + 1) % length
  return null
}

/** The text typed so far and a block cursor; empty, the default shows dimmed under the cursor. */
export function TextField({ value, placeholder = '' }: { value: string; placeholder?: string }) {
  if (value !== '' || placeholder === '') {
    return (
      <Text>
        {value}
        <Text inverse> </Text>
      </Text>
    )
  }
  return (
    <Text>
      <Text inverse>{placeholder[0]}</Text>
      <Text dimColor>{placeholder.slice(1)}</Text>
    </Text>
  )
}

export interface SelectItem<T extends string> {
  value: T
  /** Why one would pick it, shown beside it. */
  note: string
}

/** The options, the highlighted one marked ❯. */
export function SelectList<T extends string>({
  items,
  index,
  color = true,
}: {
  items: readonly SelectItem<T>[]
  index: number
  /** The highlighted one in colour (besides its ❯). */
  color?: boolean
}) {
  const width = Math.max(...items.map((i) => i.value.length))
  return (
    <Box flexDirection="column" marginLeft={2}>
      {items.map((item, i) => (
        <Text key={item.value} color={color && i === index ? 'cyan' : undefined}>
          {i === index ? '❯ ' : '  '}
          {item.value.padEnd(width)}
          {'  '}
          <Text dimColor={i !== index}>{item.note}</Text>
        </Text>
      ))}
    </Box>
  )
}
