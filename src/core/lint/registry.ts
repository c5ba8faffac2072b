/**
 * Every rule, in the order they are documented and listed: the manager rules, then the best
 * practices. Ids are stable: never rename one; retire it instead. docs/rules.md is generated
 * from this list (scripts/gen-rules-doc.mjs).
 */
import type { Context } from './context.js'
import { MANAGER_RULES } from './registry-manager.js'
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
] as Rule<Context>[]

export const RULES_BY_ID: ReadonlyMap<string, Rule<Context>> = new Map(RULES.map((r) => [r.id, r]))

export { ruleMeta } from './rule-meta.js'
