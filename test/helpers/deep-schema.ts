/**
 * One level of each kind of deep schema the depth tests build: its opening and closing text (each
 * subschema described and decided, so that only the leaf is judged), the JSON levels it adds and
 * its JSON pointer step.
 */
export const SCHEMA_LEVELS = {
  items: { open: '{"type":"array","description":"d","items":', close: '}', levels: 1, step: '/items' },
  properties: {
    open: '{"type":"object","description":"d","additionalProperties":false,"properties":{"p":',
    close: '}}',
    levels: 2,
    step: '/properties/p',
  },
  anyOf: { open: '{"description":"d","anyOf":[', close: ']}', levels: 2, step: '/anyOf/0' },
}
export type SchemaLevelKind = keyof typeof SCHEMA_LEVELS
