import { QS_LIMITS } from '../http/queryParser.js';
import { BLANK_TEXT_PATTERN } from '../shared/paramTypes.js';
import { INDEXED_ARRAY_NOTE, type JsonSchema } from './jsonSchema.js';

/**
 * A parameter schema as a query string or a form body can carry it (bracket notation,
 * src/http/queryParser.ts). The JSON schema says more than text can: there is no null (a
 * blank value is "not sent"), an empty array or object sends nothing at all, every array
 * holds at most the parser's `arrayLimit` items, and an object's `[0]` keys are keys of the
 * object (the array-as-indexed-object choice of JSON is the same thing here), an object
 * has no blank form, and an open object's keys hold no brackets.
 *
 * `nested` is false for a whole form body, which may be empty.
 */
export function textEncodedSchema(schema: JsonSchema, nested = true): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (Array.isArray(out.type) && out.type.includes('null')) {
    const types = out.type.filter((t) => t !== 'null');
    out.type = types.length === 1 ? types[0] : types;
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = out[key];
    if (!Array.isArray(branches)) continue;
    let kept = (branches as JsonSchema[])
      .filter((b) => !isNullOnly(b) && !isIndexedArray(b))
      .map((b) => textEncodedSchema(b, nested));
    // an object travels as deepObject, where blank text (`filters=`) is no value at all
    const values = kept.filter((b) => !isBlankText(b));
    if (values.length === 1 && values[0]!.type === 'object') kept = values;
    if (kept.length === 1 && !hasOwnShape(out, key)) {
      delete out[key];
      const description = out.description;
      Object.assign(out, kept[0], description === undefined ? {} : { description });
    } else {
      out[key] = kept;
    }
  }
  if (Array.isArray(out.allOf)) {
    out.allOf = (out.allOf as JsonSchema[]).map((b) => textEncodedSchema(b, nested));
  }
  for (const key of ['then', 'else'] as const) {
    if (isObject(out[key])) out[key] = textEncodedSchema(out[key] as JsonSchema, nested);
  }
  if (isObject(out.properties)) {
    out.properties = Object.fromEntries(
      Object.entries(out.properties as Record<string, JsonSchema>).map(([k, v]) => [
        k,
        textEncodedSchema(v),
      ]),
    );
  }
  if (isObject(out.additionalProperties)) {
    out.additionalProperties = textEncodedSchema(out.additionalProperties as JsonSchema);
    out.propertyNames = { ...(out.propertyNames as JsonSchema | undefined), ...TEXT_KEY };
  }
  if (out.type === 'array') {
    if (isObject(out.items)) out.items = textEncodedSchema(out.items as JsonSchema);
    out.minItems = Math.max(Number(out.minItems ?? 0), 1);
    out.maxItems = Math.min(Number(out.maxItems ?? Infinity), QS_LIMITS.arrayLimit);
  }
  const required = Array.isArray(out.required) && out.required.length > 0;
  if (nested && out.type === 'object' && !required) {
    out.minProperties = Math.max(Number(out.minProperties ?? 0), 1);
  }
  return out;
}

/**
 * The keys text can write in an open object: a bracket would nest (`data[a[b]]`), and the
 * parser drops keys that name Object.prototype's own (`toString`, `__proto__`, …).
 */
const TEXT_KEY: JsonSchema = {
  type: 'string',
  pattern: '^[^\\[\\]]+$',
  not: { enum: Object.getOwnPropertyNames(Object.prototype).sort() },
};

/** Whether a value of `schema` holds objects: an object, an array of them, a branch of either. */
export function holdsObjects(schema: JsonSchema): boolean {
  if (schema.type === 'object' || '$ref' in schema) return true;
  if (schema.type === 'array' && isObject(schema.items)) {
    return holdsObjects(schema.items as JsonSchema);
  }
  const branches = schema.anyOf;
  return Array.isArray(branches) && branches.some((b) => holdsObjects(b as JsonSchema));
}

/** Whether a value of `schema` may be an array (also as one branch of an anyOf). */
export function holdsArray(schema: JsonSchema): boolean {
  if (schema.type === 'array') return true;
  const branches = schema.anyOf;
  return Array.isArray(branches) && branches.some((b) => holdsArray(b as JsonSchema));
}

/** The marker of parameters nested in bracket notation, which no OpenAPI style describes. */
export const BRACKET_NOTATION = 'x-bracket-notation';

/**
 * How a parameter travels as text, for a query parameter or a form field's encoding, with
 * the schema of what it carries: `deepObject` for an object (`filters[price]=>=,10`),
 * repeated for an array of plain values (`tags=a&tags=b`). OpenAPI has no style for arrays
 * of objects (`fields[0][name]=…`) nor for what an object's values nest (`data[tags][0]=…`):
 * those say so with the extension, whose value shows the notation. An object parameter drops the blank
 * choice: `filters=` is not bracket notation, and leaving the parameter out means the same.
 */
export function textStyle(
  name: string,
  schema: JsonSchema,
): { schema: JsonSchema; style: JsonSchema } {
  const object = objectChoice(schema);
  if (object) {
    // deepObject states the first level; what a value nests below it, the extension does
    const deeper = holdsObjectValues(object)
      ? { [BRACKET_NOTATION]: `${name}[<key>][<key or index>]=<value>` }
      : {};
    return { schema: object, style: { style: 'deepObject', explode: true, ...deeper } };
  }
  if (!holdsArray(schema)) return { schema, style: {} };
  const style = holdsObjects(schema)
    ? { [BRACKET_NOTATION]: `${name}[0][<key>]=<value>` }
    : { style: 'form', explode: true };
  return { schema, style };
}

/** The object a parameter takes when its only other choice is blank text, else undefined. */
function objectChoice(schema: JsonSchema): JsonSchema | undefined {
  if (schema.type === 'object') return schema;
  const branches = schema.anyOf as JsonSchema[] | undefined;
  if (!Array.isArray(branches) || hasOwnShape(schema, 'anyOf')) return undefined;
  const values = branches.filter((b) => !isBlankText(b));
  if (values.length !== 1 || values[0]!.type !== 'object') return undefined;
  const { description } = schema;
  return { ...values[0], ...(description === undefined ? {} : { description }) };
}

function isBlankText(schema: JsonSchema): boolean {
  return schema.type === 'string' && schema.pattern === BLANK_TEXT_PATTERN;
}

/** An object whose values may themselves be objects or arrays (`data[tags][0]=vip`). */
function holdsObjectValues(schema: JsonSchema): boolean {
  if (schema.type !== 'object') return false;
  const values = [
    ...Object.values((schema.properties ?? {}) as Record<string, JsonSchema>),
    ...(isObject(schema.additionalProperties) ? [schema.additionalProperties as JsonSchema] : []),
  ];
  return values.some((v) => !hasScalarType(v));
}

function hasScalarType(schema: JsonSchema): boolean {
  const scalar = (t: unknown) => ['string', 'number', 'integer', 'boolean'].includes(String(t));
  if (schema.type !== undefined) return scalar(schema.type);
  if ('const' in schema || Array.isArray(schema.enum)) return true;
  const branches = schema.anyOf ?? schema.oneOf;
  return Array.isArray(branches) && (branches as JsonSchema[]).every(hasScalarType);
}

function isNullOnly(schema: JsonSchema): boolean {
  return schema.type === 'null' && Object.keys(schema).every((k) => k === 'type');
}

function isIndexedArray(schema: JsonSchema): boolean {
  return schema.type === 'array' && schema.description === INDEXED_ARRAY_NOTE;
}

/** Whether the schema says more than its choice, so that a lone branch cannot replace it. */
function hasOwnShape(schema: JsonSchema, choice: string): boolean {
  return Object.keys(schema).some((k) => k !== choice && k !== 'description');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
