/**
 * The manager rules (what the manager would refuse, or what every run would hit): the rules of
 * `validate`, kept apart so that validate loads none of the best-practice modules. The `tests`
 * rules (the pack's own case files) ride along: validate checks those too.
 */
import type { Context } from './context.js'
import envInvalidName from './rules/env-invalid-name.js'
import inputSkipped from './rules/input-skipped.js'
import managerBuild from './rules/manager-build.js'
import managerBuiltinName from './rules/manager-builtin-name.js'
import managerDuplicateName from './rules/manager-duplicate-name.js'
import managerFileName from './rules/manager-file-name.js'
import managerParse from './rules/manager-parse.js'
import managerSymlinkNotWalked from './rules/manager-symlink-not-walked.js'
import managerWalk from './rules/manager-walk.js'
import nativeActivationConflict from './rules/native-activation-conflict.js'
import nativeFrontmatter from './rules/native-frontmatter.js'
import nativeMissingDescription from './rules/native-missing-description.js'
import nativeMissingName from './rules/native-missing-name.js'
import nativeNameNormalized from './rules/native-name-normalized.js'
import nativeNotLoaded from './rules/native-not-loaded.js'
import nativeRead from './rules/native-read.js'
import nativeYaml from './rules/native-yaml.js'
import nativeYamlType from './rules/native-yaml-type.js'
import runEntryDirectory from './rules/run-entry-directory.js'
import runEntryStat from './rules/run-entry-stat.js'
import runEnvLookup from './rules/run-env-lookup.js'
import runExecFormat from './rules/run-exec-format.js'
import runInterpreterMissing from './rules/run-interpreter-missing.js'
import runNotExecutable from './rules/run-not-executable.js'
import schemaDefaultInvalid from './rules/schema-default-invalid.js'
import schemaInvalid from './rules/schema-invalid.js'
import schemaNotObject from './rules/schema-not-object.js'
import schemaNumberRange from './rules/schema-number-range.js'
import schemaTooDeep from './rules/schema-too-deep.js'
import schemaUnknownDraft from './rules/schema-unknown-draft.js'
import testsArgsSchema from './rules/tests-args-schema.js'
import testsShape from './rules/tests-shape.js'
import testsUnknownKey from './rules/tests-unknown-key.js'
import type { Rule } from './types.js'

export const MANAGER_RULES: readonly Rule<Context>[] = [
  managerParse,
  managerBuild,
  managerBuiltinName,
  managerDuplicateName,
  managerWalk,
  managerSymlinkNotWalked,
  managerFileName,
  inputSkipped,
  runEntryStat,
  runEntryDirectory,
  runNotExecutable,
  runExecFormat,
  runInterpreterMissing,
  runEnvLookup,
  schemaNotObject,
  schemaNumberRange,
  schemaInvalid,
  schemaDefaultInvalid,
  schemaUnknownDraft,
  schemaTooDeep,
  envInvalidName,
  nativeNotLoaded,
  nativeRead,
  nativeFrontmatter,
  nativeYaml,
  nativeYamlType,
  nativeMissingName,
  nativeMissingDescription,
  nativeNameNormalized,
  nativeActivationConflict,
  // Not the manager's: the pack's own case files, which `test` runs. validate checks them too.
  testsShape,
  testsUnknownKey,
  testsArgsSchema,
] as Rule<Context>[]
