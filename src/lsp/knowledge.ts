/**
 * What the manager does with each key of a skill.json (docs/manager contract §3, §4, §6), for
 * hover and completion. Only the keys its SkillManifest struct reads: any other key is ignored.
 */
export interface KeyDoc {
  key: string
  type: string
  default: string
  does: string
}

export const MANIFEST_KEYS: readonly KeyDoc[] = [
  {
    key: 'name',
    type: 'string',
    default: 'none: required',
    does: 'the skill key the LLM calls: lower_snake [a-z0-9_] only (else `name %q must be lower_snake`); a name already registered (a builtin, or an earlier pack in walk order) is skipped.',
  },
  {
    key: 'description',
    type: 'string',
    default: 'none: required',
    does: 'what the skill does and when to use it: the LLM reads it, with a "Returns:" suffix added by the bridge.',
  },
  {
    key: 'entry',
    type: 'string',
    default: 'none: required',
    does: "the executable: joined to this file's dir when relative, symlinks resolved; it must stay under the allow-list root (a resolved path starting with `..` escapes). Not executable or a dir: loaded, but every run fails.",
  },
  {
    key: 'schema',
    type: 'object (json.RawMessage)',
    default: 'none: the LLM sees {"properties":{},"type":"object"} and passes no arguments',
    does: "the JSON Schema of the arguments: the LLM bridge sends it (transformed), the REST path checks args against it; the executor sends the params verbatim on the entry's stdin.",
  },
  {
    key: 'env_allow',
    type: '[]string',
    default: 'none: no environment at all',
    does: "names passed to the entry, each trimmed, empty ones skipped, only those set in the manager's environment; nothing else is passed: an empty list passes no environment at all, not even PATH.",
  },
  {
    key: 'timeout_seconds',
    type: 'int',
    default: '30',
    does: "seconds before the entry's whole process group gets SIGKILL; 0, a negative value, or one whose nanoseconds overflow int64 gives 30 s.",
  },
  {
    key: 'class',
    type: 'string: "", safe, mutating, dangerous',
    default: 'safe',
    does: 'safe: offered to the LLM, runnable over REST by every role; mutating: not offered to the LLM, runnable by admin and user only; dangerous: always refused. Case-sensitive: any other value is `class %q invalid` and the pack is not loaded.',
  },
  {
    key: 'category',
    type: 'string',
    default: 'external',
    does: 'a grouping label shown with the skill; it changes nothing the manager does.',
  },
]

export const CLASSES: readonly string[] = ['safe', 'mutating', 'dangerous']

/** SKILL.md activation modes the chat runtime knows (any other is treated as always). */
export const ACTIVATION_MODES: readonly { mode: string; does: string }[] = [
  { mode: 'always', does: "the skill's body is always in the prompt" },
  { mode: 'keyword', does: 'the body is added when a message holds one of activation.keywords' },
]

/** Markdown of a key's hover. */
export function keyHover(d: KeyDoc): string {
  return `**${d.key}**: \`${d.type}\`, default ${d.default}\n\n${d.does}`
}
