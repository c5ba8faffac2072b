/**
 * Every rule, in the order they are documented and listed: the manager rules, then the best
 * practices. Ids are stable: never rename one; retire it instead. docs/rules.md is generated
 * from this list (scripts/gen-rules-doc.mjs).
 */
import type { Context } from './context.js'
import { MANAGER_RULES } from './registry-manager.js'
import entryEvalInput from './rules/entry-eval-input.js'
import entryExpansionAsCommand from './rules/entry-expansion-as-command.js'
import entryPipeToShell from './rules/entry-pipe-to-shell.js'
import entryShellString from './rules/entry-shell-string.js'
import entryShellcheck from './rules/entry-shellcheck.js'
import envDangerousName from './rules/env-dangerous-name.js'
import envDuplicate from './rules/env-duplicate.js'
import envEmpty from './rules/env-empty.js'
import envWhitespace from './rules/env-whitespace.js'
import nativeActivationMode from './rules/native-activation-mode.js'
import nativeKeywordsMissing from './rules/native-keywords-missing.js'
import nativeNoFrontmatter from './rules/native-no-frontmatter.js'
import nativeToolClass from './rules/native-tool-class.js'
import practiceAbsoluteEntry from './rules/practice-absolute-entry.js'
import practiceAgentToolName from './rules/practice-agent-tool-name.js'
import practiceBom from './rules/practice-bom.js'
import practiceCaseInsensitiveKey from './rules/practice-case-insensitive-key.js'
import practiceClassUnset from './rules/practice-class-unset.js'
import practiceConfusableTool from './rules/practice-confusable-tool.js'
import practiceDangerousClass from './rules/practice-dangerous-class.js'
import practiceDescriptionLength from './rules/practice-description-length.js'
import practiceDuplicateKey from './rules/practice-duplicate-key.js'
import practiceNearMissKey from './rules/practice-near-miss-key.js'
import practiceNotOfferedToLlm from './rules/practice-not-offered-to-llm.js'
import practiceTimeoutIgnored from './rules/practice-timeout-ignored.js'
import practiceTimeoutLlmDeadline from './rules/practice-timeout-llm-deadline.js'
import practiceTimeoutTooLong from './rules/practice-timeout-too-long.js'
import practiceTimeoutUnset from './rules/practice-timeout-unset.js'
import practiceToolSize from './rules/practice-tool-size.js'
import practiceUnknownKey from './rules/practice-unknown-key.js'
import schemaAdditionalProperties from './rules/schema-additional-properties.js'
import schemaDuplicateKey from './rules/schema-duplicate-key.js'
import schemaMissing from './rules/schema-missing.js'
import schemaPropertyDescription from './rules/schema-property-description.js'
import schemaRedosPattern from './rules/schema-redos-pattern.js'
import schemaRequiredUnknown from './rules/schema-required-unknown.js'
import schemaTopType from './rules/schema-top-type.js'
import secretHighEntropy from './rules/secret-high-entropy.js'
import secretPrivateKey from './rules/secret-private-key.js'
import secretToken from './rules/secret-token.js'
import secretUrlPassword from './rules/secret-url-password.js'
import textHiddenChar from './rules/text-hidden-char.js'
import textModelInstruction from './rules/text-model-instruction.js'
import type { Rule } from './types.js'

export const RULES: readonly Rule<Context>[] = [
  ...MANAGER_RULES,
  practiceBom,
  practiceClassUnset,
  practiceNotOfferedToLlm,
  practiceDangerousClass,
  practiceDescriptionLength,
  practiceToolSize,
  practiceConfusableTool,
  practiceTimeoutUnset,
  practiceTimeoutIgnored,
  practiceTimeoutTooLong,
  practiceTimeoutLlmDeadline,
  practiceNearMissKey,
  practiceCaseInsensitiveKey,
  practiceUnknownKey,
  practiceDuplicateKey,
  practiceAgentToolName,
  practiceAbsoluteEntry,
  schemaMissing,
  schemaTopType,
  schemaPropertyDescription,
  schemaRequiredUnknown,
  schemaAdditionalProperties,
  schemaDuplicateKey,
  schemaRedosPattern,
  envWhitespace,
  envEmpty,
  envDuplicate,
  envDangerousName,
  nativeNoFrontmatter,
  nativeToolClass,
  nativeActivationMode,
  nativeKeywordsMissing,
  entryShellcheck,
  entryEvalInput,
  entryShellString,
  entryPipeToShell,
  entryExpansionAsCommand,
  secretPrivateKey,
  secretToken,
  secretUrlPassword,
  secretHighEntropy,
  textHiddenChar,
  textModelInstruction,
] as Rule<Context>[]

export const RULES_BY_ID: ReadonlyMap<string, Rule<Context>> = new Map(RULES.map((r) => [r.id, r]))

/** Where a sub id (`entry/SC2086`) is documented, when not in docs/rules.md; else undefined. */
export function subIdHelpUri(id: string): string | undefined {
  if (RULES_BY_ID.has(id)) return undefined
  return RULES.find((r) => r.subIds?.pattern.test(id))?.subIds?.meta(id).helpUri
}

/** What a rule id is about: a rule's docs, or what its rule says of a sub id (`entry/SC2086`). */
export function ruleDocs(id: string): string | undefined {
  const own = RULES_BY_ID.get(id)
  if (own) return own.docs
  return RULES.find((r) => r.subIds?.pattern.test(id))?.subIds?.meta(id).docs
}

export { ruleMeta } from './rule-meta.js'
