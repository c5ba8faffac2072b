/** JSON Schema keywords (draft-07 and 2020-12) whose value is a subschema. */
export const SUBSCHEMA = new Set([
  'additionalProperties',
  'items',
  'additionalItems',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
])

/** Keywords whose value is a list of subschemas (`items` is one in draft-07's tuple form). */
export const SUBSCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'])

/** Keywords whose value maps names to subschemas (draft-07 `dependencies` may also hold arrays). */
export const SUBSCHEMA_MAP = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
])
