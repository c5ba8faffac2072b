// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell syntax, not JavaScript templates
/**
 * Shell completion scripts, generated from the commands' own definitions (oclif's), so they
 * never fall behind: commands and topics, each command's flags, the values of flags that take
 * one of a list (and --template's built-in templates), files elsewhere. The script is static:
 * completing costs the shell nothing, and the CLI is never started for it.
 */
export interface CompletionFlag {
  name: string
  char?: string
  description: string
  takesValue: boolean
  options?: readonly string[]
}

export interface CompletionCommand {
  /** Words as typed: `lint`, `audit tail`. */
  words: string[]
  summary: string
  flags: CompletionFlag[]
}

export const SHELLS = ['bash', 'zsh'] as const
export type Shell = (typeof SHELLS)[number]

export function completionScript(shell: Shell, bin: string, commands: CompletionCommand[]): string {
  return shell === 'bash' ? bash(bin, commands) : zsh(bin, commands)
}

const fn = (bin: string) => `_${bin.replace(/[^A-Za-z0-9]/g, '_')}`

/** A single-quoted shell word. */
const sq = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`

function flagWords(c: CompletionCommand): string {
  return c.flags.flatMap((f) => [`--${f.name}`, ...(f.char ? [`-${f.char}`] : [])]).join(' ')
}

function bash(bin: string, commands: CompletionCommand[]): string {
  const top = [...new Set(commands.map((c) => c.words[0]))].sort()
  const topics = [...new Set(commands.filter((c) => c.words.length > 1).map((c) => c.words[0]))].sort()
  const lines: string[] = []
  lines.push(`# bash completion for ${bin}: eval "$(${bin} completion bash)" in ~/.bashrc`)
  lines.push(`${fn(bin)}() {`)
  lines.push('  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd=${COMP_WORDS[1]}')
  lines.push('  COMPREPLY=()')
  lines.push('  if [ "$COMP_CWORD" -eq 1 ]; then')
  lines.push(`    COMPREPLY=($(compgen -W ${sq(top.join(' '))} -- "$cur")); return`)
  lines.push('  fi')
  lines.push('  case $cmd in')
  for (const t of topics) {
    const subs = commands.filter((c) => c.words[0] === t && c.words.length > 1).map((c) => c.words[1])
    lines.push(`    ${t})`)
    lines.push('      if [ "$COMP_CWORD" -eq 2 ]; then')
    lines.push(`        COMPREPLY=($(compgen -W ${sq(subs.join(' '))} -- "$cur")); return`)
    lines.push('      fi')
    lines.push('      cmd="$cmd ${COMP_WORDS[2]}" ;;')
  }
  lines.push('  esac')
  lines.push('  local flags=')
  lines.push('  case $cmd in')
  for (const c of commands) {
    const id = c.words.join(' ')
    lines.push(`    ${sq(id)})`)
    lines.push(`      flags=${sq(flagWords(c))}`)
    const valued = c.flags.filter((f) => f.options)
    if (valued.length > 0) {
      lines.push('      case $prev in')
      for (const f of valued) {
        const names = [`--${f.name}`, ...(f.char ? [`-${f.char}`] : [])].join('|')
        lines.push(
          `        ${names}) COMPREPLY=($(compgen -W ${sq((f.options ?? []).join(' '))} -- "$cur")); return ;;`,
        )
      }
      lines.push('      esac')
    }
    if (id === 'help') {
      lines.push(`      COMPREPLY=($(compgen -W ${sq(top.join(' '))} -- "$cur")); return ;;`)
    } else lines.push('      ;;')
  }
  lines.push('  esac')
  lines.push('  if [[ $cur == -* ]]; then')
  lines.push('    COMPREPLY=($(compgen -W "$flags" -- "$cur"))')
  lines.push('  else')
  lines.push('    COMPREPLY=($(compgen -f -- "$cur"))')
  lines.push('  fi')
  lines.push('}')
  lines.push(`complete -o filenames -o bashdefault -F ${fn(bin)} ${bin}`)
  return `${lines.join('\n')}\n`
}

/** A zsh `_arguments` spec for one flag. */
function zshFlag(f: CompletionFlag): string {
  const desc = f.description.replace(/[[\]:\\]/g, (m) => `\\${m}`).replace(/\s+/g, ' ')
  const value = !f.takesValue ? '' : f.options ? `:${f.name}:(${f.options.join(' ')})` : `:${f.name}:_files`
  const names = f.char ? `{-${f.char},--${f.name}}` : `--${f.name}`
  const spec = `[${desc}]${value}`
  return f.char ? `${sq(`(-${f.char} --${f.name})`)}${names}${sq(spec)}` : sq(`${names}${spec}`)
}

function zsh(bin: string, commands: CompletionCommand[]): string {
  // _describe splits NAME:DESCRIPTION at the first colon: a description keeps its own.
  const desc = (s: string) => s.replace(/\s+/g, ' ')
  const tops = new Map<string, string>()
  for (const c of commands) {
    if (!tops.has(c.words[0])) tops.set(c.words[0], c.words.length > 1 ? `${c.words[0]} commands` : c.summary)
  }
  const lines: string[] = []
  lines.push(`#compdef ${bin}`)
  lines.push(
    `# zsh completion for ${bin}: ${bin} completion zsh > "\${fpath[1]}/_${bin}" (or eval it in ~/.zshrc)`,
  )
  lines.push(`${fn(bin)}() {`)
  lines.push('  local -a cmds')
  lines.push('  if (( CURRENT == 2 )); then')
  lines.push(
    `    cmds=(${[...tops]
      .sort()
      .map(([w, s]) => sq(`${w}:${desc(s)}`))
      .join(' ')})`,
  )
  lines.push("    _describe -t commands 'command' cmds; return")
  lines.push('  fi')
  // _arguments reads words[1] as the command: drop the words before it (the program, a topic).
  lines.push('  local cmd=${words[2]}')
  lines.push('  case $cmd in')
  for (const t of [...new Set(commands.filter((c) => c.words.length > 1).map((c) => c.words[0]))]) {
    const subs = commands.filter((c) => c.words[0] === t && c.words.length > 1)
    lines.push(`    ${t})`)
    lines.push('      if (( CURRENT == 3 )); then')
    lines.push(`        cmds=(${subs.map((c) => sq(`${c.words[1]}:${desc(c.summary)}`)).join(' ')})`)
    lines.push("        _describe -t commands 'command' cmds; return")
    lines.push('      fi')
    lines.push(`      cmd="${t} \${words[3]}"; shift 2 words; (( CURRENT -= 2 )) ;;`)
  }
  lines.push('    *) shift words; (( CURRENT-- )) ;;')
  lines.push('  esac')
  lines.push('  case $cmd in')
  for (const c of commands) {
    const id = c.words.join(' ')
    const rest = id === 'help' ? `'*:command:(${[...tops.keys()].sort().join(' ')})'` : "'*:file:_files'"
    lines.push(`    ${sq(id)})`)
    lines.push(`      _arguments -s ${[...c.flags.map(zshFlag), rest].join(' \\\n        ')} ;;`)
  }
  lines.push('  esac')
  lines.push('}')
  // Autoloaded from its fpath file (_BIN), the file's body runs on the first completion: it
  // completes then. Sourced or eval'd (~/.zshrc), it registers the function.
  lines.push(`if [[ $funcstack[1] == _${bin} ]]; then ${fn(bin)} "$@"; else compdef ${fn(bin)} ${bin}; fi`)
  return `${lines.join('\n')}\n`
}
