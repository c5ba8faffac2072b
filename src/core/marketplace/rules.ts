/**
 * Rule ids of `marketplace check` / `verify` findings. `marketplace/*` carry the manager's own
 * codes and texts; `marketplace-bug/*` are the manager's likely bugs and `marketplace-practice/*`
 * our advice, never the manager's verdict.
 */
import type { RuleMeta, Severity } from '../lint/types.js'

/** The finding of an unsigned pack (marketplace/unsigned): the manager's own detail for it. */
export const UNSIGNED_MESSAGE = 'no signature.json found'

/** The loader's warning codes (chatruntime.LoadWarning.Code) and how much each matters here. */
const WARNING_CODES: [string, Severity, string][] = [
  [
    'escapes_root',
    'error',
    'a symlink resolves out of the pack: the file is skipped and Install refuses the pack',
  ],
  [
    'symlink_error',
    'warn',
    'a symlink does not resolve (dangling or a loop): the file is skipped, the pack installs',
  ],
  ['walk_error', 'warn', 'a directory of the pack could not be read while walking it'],
  ['root_resolve_failed', 'warn', 'the pack root does not resolve: only its metadata is loaded'],
  ['parse_failed', 'warn', 'a SKILL.md or agent file does not parse: it is dropped, the pack installs'],
  ['command_parse_failed', 'warn', 'a command file does not convert: it is dropped, the pack installs'],
  ['skills_path_rejected', 'warn', 'an openclaw skills[] entry is absolute or contains `..`'],
  ['name_normalized', 'info', 'a skill name is not snake_case and is normalised'],
  ['name_non_snake', 'info', 'an agent name is not snake_case'],
  ['activation_conflict', 'info', 'top-level and metadata.ongrid activation modes differ'],
  ['command_missing_description', 'info', 'a command has no description: a generated one is used'],
  ['id_fallback_from_name', 'info', "the manifest has no 'id': its 'name' is used"],
  ['openclaw_legacy_preserved', 'info', 'openclaw-only manifest fields are kept as UI metadata only'],
  ['hooks_unsupported', 'info', 'a hooks/ dir: the manager never runs plugin hooks'],
  ['hooks_dropped', 'info', 'a hook file that is ignored'],
  ['mcp_unsupported', 'info', 'a .mcp.json: the manager does not run MCP servers'],
]

export function warningRuleId(code: string): string {
  return `marketplace/${code.replace(/_/g, '-')}`
}

export const MARKETPLACE_RULES: RuleMeta[] = [
  {
    id: 'marketplace/install-refused',
    severity: 'error',
    category: 'manager',
    kind: 'any',
    docs: "Install refuses the pack: the manager's error text, as the upload would return it",
  },
  {
    id: 'marketplace/signature-failed',
    severity: 'warn',
    category: 'manager',
    kind: 'any',
    docs: 'signature.json is present but does not verify (an error when the trust gate applies)',
  },
  {
    id: 'marketplace/unsigned',
    severity: 'info',
    category: 'manager',
    kind: 'any',
    docs: 'no signature.json at the pack root',
  },
  ...WARNING_CODES.map(
    ([code, severity, docs]): RuleMeta => ({
      id: warningRuleId(code),
      severity,
      category: 'manager',
      kind: 'any',
      docs: `loader warning \`${code}\`: ${docs}`,
    }),
  ),
  {
    id: 'marketplace-bug/id-dot',
    severity: 'error',
    category: 'best-practice',
    kind: 'any',
    docs: 'pack id "." is accepted by the manager and its install deletes the whole skills root',
  },
  {
    id: 'marketplace-bug/id-shadows-root',
    severity: 'error',
    category: 'best-practice',
    kind: 'any',
    docs: 'a pack id that can make the skills root look like a pack at reload',
  },
  {
    id: 'marketplace-bug/dangling-escape',
    severity: 'error',
    category: 'best-practice',
    kind: 'any',
    docs: 'a dangling symlink out of the pack: the manager installs it, live once its target appears',
  },
  {
    id: 'marketplace-practice/id-form',
    severity: 'warn',
    category: 'best-practice',
    kind: 'any',
    docs: 'pack ids should match ^[a-z0-9][a-z0-9-]{0,127}$ (what `pack` requires)',
  },
  {
    id: 'marketplace-practice/db-limit',
    severity: 'error',
    category: 'best-practice',
    kind: 'any',
    docs: "pack id, name or version longer than the manager's database columns (128, 255, 64)",
  },
  {
    id: 'marketplace-practice/no-wrapper',
    severity: 'warn',
    category: 'best-practice',
    kind: 'any',
    docs: 'an archive without one top-level folder: staged under a random name',
  },
]

const BY_ID = new Map(MARKETPLACE_RULES.map((r) => [r.id, r]))

/** A rule of the list, by id; an id not in it is a bug of ours (every finding comes from the list). */
export function marketplaceRule(id: string): RuleMeta {
  const rule = BY_ID.get(id)
  if (rule === undefined) throw new Error(`marketplace rule ${id} is not in MARKETPLACE_RULES`)
  return rule
}
