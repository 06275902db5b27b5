import fc from 'fast-check';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Schema = Record<string, any>;

/** What a schema that says nothing (`{}`) holds, and the keys of open objects. */
export interface OpenValues {
  any: fc.Arbitrary<unknown>;
  key: fc.Arbitrary<string>;
}

/** JSON: any JSON value, any text as a key. */
export const JSON_VALUES: OpenValues = {
  any: fc.jsonValue({ maxDepth: 2 }),
  key: fc.string({ minLength: 1, maxLength: 10 }),
};

/**
 * Values of a JSON Schema, for the subset the API's document uses (type, const, enum, anyOf,
 * allOf, pattern, lengths, bounds, items, properties, required, additionalProperties with
 * propertyNames). `if`/`then` rules are left to the caller's validity filter. `$ref`s are
 * resolved against `schemas` (the document's components).
 */
export function arbitraryOf(
  schema: Schema,
  schemas: Record<string, Schema>,
  open: OpenValues = JSON_VALUES,
): fc.Arbitrary<unknown> {
  const again = (s: Schema) => arbitraryOf(s, schemas, open);
  if (schema.$ref) return again(schemas[String(schema.$ref).split('/').pop()!]!);
  if (Object.keys(schema).every((k) => k === 'description')) return open.any;
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  if (schema.anyOf) {
    return fc.oneof(...(schema.anyOf as Schema[]).map(again));
  }
  if (schema.allOf && schema.type === 'string') return stringOfPatterns(schema);
  if (schema.allOf) return again(mergedAllOf(schema, schemas));
  switch (schema.type) {
    case 'string':
      return stringOf(schema);
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1_000_000, Number.MIN_SAFE_INTEGER),
        max: Math.min(schema.maximum ?? 1_000_000, Number.MAX_SAFE_INTEGER),
      });
    case 'number':
      return fc.double({
        min: schema.minimum ?? -1e6,
        max: schema.maximum ?? 1e6,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schema.items ? again(schema.items as Schema) : fc.string(), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case 'object':
    case undefined:
      return objectOf(schema, again, open);
    default:
      return fc.constant(null);
  }
}

/**
 * One object schema for an `allOf` of object schemas: properties and required keys joined.
 * Branches that only require keys (the either-or rules) add nothing here; the caller's validity
 * filter keeps the values that meet them.
 */
export function mergedAllOf(schema: Schema, schemas: Record<string, Schema>): Schema {
  const { allOf, ...own } = schema;
  if (!Array.isArray(allOf)) return schema;
  const branches = (allOf as Schema[]).map((b) =>
    b.$ref ? schemas[String(b.$ref).split('/').pop()!]! : b,
  );
  const flat = branches.map((b) => (b.allOf ? mergedAllOf(b, schemas) : b));
  if (!flat.every((b) => b.type === 'object' || (b.type === undefined && !b.anyOf))) {
    // the branches constrain one value of another kind; the first describes it
    return { ...flat[0], ...own };
  }
  return {
    ...own,
    type: 'object',
    properties: Object.assign({}, own.properties, ...flat.map((b) => b.properties ?? {})),
    required: [...new Set([...(own.required ?? []), ...flat.flatMap((b) => b.required ?? [])])],
  };
}

/** Text that matches every `pattern` of the `allOf` (zod writes two regexes that way). */
function stringOfPatterns(schema: Schema): fc.Arbitrary<string> {
  const { allOf, ...own } = schema;
  const patterns = (allOf as Schema[]).map((b) => new RegExp(b.pattern as string, 'u'));
  return stringOf({ ...own, pattern: (allOf as Schema[]).at(-1)!.pattern }).filter((s) =>
    patterns.every((p) => p.test(s)),
  );
}

function stringOf(schema: Schema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 40, 300);
  const base = schema.pattern
    ? fc.stringMatching(new RegExp(schema.pattern as string))
    : fc.string({ minLength: min, maxLength: Math.max(min, Math.min(max, 40)) });
  return base.filter((s) => [...s].length >= min && [...s].length <= max);
}

function objectOf(
  schema: Schema,
  again: (s: Schema) => fc.Arbitrary<unknown>,
  open: OpenValues,
): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const record = fc.record(
    Object.fromEntries(Object.entries(properties).map(([k, s]) => [k, again(s)])),
    { requiredKeys: (schema.required as string[] | undefined) ?? [] },
  );
  const extra = schema.additionalProperties;
  if (!extra || typeof extra !== 'object') return record;
  const refused = new Set((schema.propertyNames?.not?.enum ?? []) as string[]);
  const names = (
    schema.propertyNames?.pattern
      ? fc.stringMatching(new RegExp(schema.propertyNames.pattern as string))
      : open.key
  ).filter((n) => !refused.has(n));
  const more = fc.dictionary(
    names.filter((n) => !Object.hasOwn(properties, n)),
    again(extra),
    { minKeys: schema.minProperties ?? 0, maxKeys: 3 },
  );
  return fc.tuple(record, more).map(([r, m]) => ({ ...m, ...r }));
}
