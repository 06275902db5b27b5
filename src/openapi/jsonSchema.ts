import { z } from 'zod';
import {
  ARRAY_AS_INDEXED,
  BLANK_IS_UNSENT,
  BLANK_JSON_SCHEMAS,
  DOCUMENTED_AS,
  IGNORED_WHEN,
  SCHEMA_RULES,
  SINGLE_AS_ARRAY,
} from '../shared/paramTypes.js';

export type JsonSchema = Record<string, unknown>;

export interface NamedSchema {
  id: string;
  schema: z.ZodType;
}

/**
 * Converts zod schemas into `components.schemas` entries with zod 4's own converter;
 * references between them become `#/components/schemas/<id>`. Parameters use the
 * input side (defaults optional), responses the output side (what clients receive).
 */
export function toComponentSchemas(
  named: NamedSchema[],
  io: 'input' | 'output',
): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const { id, schema } of named) {
    // A schema object shared by two entries would otherwise keep only the last id.
    registry.add(registry.has(schema) ? schema.clone() : schema, { id });
  }
  const { schemas } = z.toJSONSchema(registry, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
    override: ({ zodSchema, jsonSchema }) => {
      // zod writes its own regex next to `format`; the format alone reads better, but for
      // email, where the server's rule is narrower than the format's (no quoted local parts,
      // no address literals), the pattern is the rule a client needs.
      if (
        typeof jsonSchema.format === 'string' &&
        typeof jsonSchema.pattern === 'string' &&
        jsonSchema.format !== 'email'
      ) {
        delete jsonSchema.pattern;
      }
      const meta = io === 'input' ? z.globalRegistry.get(zodSchema) : undefined;
      const documented = (jsonSchema as JsonSchema)[DOCUMENTED_AS];
      if (documented !== undefined) {
        delete (jsonSchema as JsonSchema)[DOCUMENTED_AS];
        if (documented instanceof z.ZodType) {
          // a whole schema of its own: it replaces what zod made of the one it documents
          for (const key of Object.keys(jsonSchema)) delete (jsonSchema as JsonSchema)[key];
          Object.assign(jsonSchema, toComponentSchemas([{ id: 'as', schema: documented }], io).as);
        } else {
          Object.assign(jsonSchema, documented);
        }
      }
      if (meta?.[SINGLE_AS_ARRAY]) allowSingle(jsonSchema as JsonSchema);
      if (meta?.[ARRAY_AS_INDEXED]) allowIndexedArray(jsonSchema as JsonSchema);
      if (meta?.[BLANK_IS_UNSENT]) allowBlank(jsonSchema as JsonSchema);
      const ignored = (jsonSchema as JsonSchema)[IGNORED_WHEN] as IgnoredWhen | undefined;
      if (ignored !== undefined) {
        delete (jsonSchema as JsonSchema)[IGNORED_WHEN];
        addRule(jsonSchema as JsonSchema, onlyUnless(jsonSchema as JsonSchema, ignored));
      }
      const rules = (jsonSchema as JsonSchema)[SCHEMA_RULES];
      if (rules !== undefined) {
        delete (jsonSchema as JsonSchema)[SCHEMA_RULES];
        addRule(jsonSchema as JsonSchema, rules as JsonSchema);
      }
    },
  });
  const out: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    // Each entry is a component of the document, not a standalone schema with its own id.
    const rest: JsonSchema = { ...schema };
    delete rest.$schema;
    delete rest.$id;
    out[id] = withoutMarkers(rest) as JsonSchema;
  }
  return out;
}

const ANY_OF_KEYS = new Set(['anyOf', 'description', BLANK_IS_UNSENT]);

/**
 * The one blank rule in the document's types: the value as described, or null, or text that
 * is empty or only whitespace — all of which mean "not sent" (shared/paramTypes.ts).
 */
function allowBlank(schema: JsonSchema): void {
  const branches = schema.anyOf;
  if (Array.isArray(branches) && branches.some((b) => (b as JsonSchema).type === 'null')) return;
  if (Array.isArray(branches) && Object.keys(schema).every((k) => ANY_OF_KEYS.has(k))) {
    // already a choice (an array that takes one value alone, …): the blanks are two more
    branches.push(...BLANK_JSON_SCHEMAS);
    delete schema[BLANK_IS_UNSENT];
    return;
  }
  asChoice(schema, (value) => [value, ...BLANK_JSON_SCHEMAS]);
}

const MARKERS = [BLANK_IS_UNSENT, SINGLE_AS_ARRAY, ARRAY_AS_INDEXED];

/** The schema without the markers zod copied from the parameters' metadata (they are ours). */
function withoutMarkers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutMarkers);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !MARKERS.includes(key))
      .map(([key, v]) => [key, withoutMarkers(v)]),
  );
}

/** Rewrites `schema` in place as a choice between `branches(value)`; its description stays. */
function asChoice(schema: JsonSchema, branches: (value: JsonSchema) => JsonSchema[]): void {
  const { description, ...value } = schema;
  for (const marker of MARKERS) delete value[marker];
  for (const key of Object.keys(schema)) delete schema[key];
  if (description !== undefined) schema.description = description;
  schema.anyOf = branches(value);
}

function addRule(schema: JsonSchema, rule: JsonSchema): void {
  const all = schema.allOf;
  schema.allOf = [...(Array.isArray(all) ? all : []), rule];
}

interface IgnoredWhen {
  when: JsonSchema;
  properties: string[];
}

/**
 * Moves the rules of properties that are ignored under a condition into an `if`/`else`: the
 * property itself keeps only its description, so any value passes while the condition holds.
 */
function onlyUnless(schema: JsonSchema, { when, properties }: IgnoredWhen): JsonSchema {
  const all = schema.properties as Record<string, JsonSchema>;
  const rules: Record<string, JsonSchema> = {};
  for (const name of properties) {
    const { description, ...rest } = all[name]!;
    rules[name] = rest;
    all[name] = description === undefined ? {} : { description };
  }
  return { if: when, else: { properties: rules } };
}

/** An object that also takes an array, read as the object of its indexes (`data[0]=…`). */
function allowIndexedArray(schema: JsonSchema): void {
  asChoice(schema, (object) => [object, { type: 'array', description: INDEXED_ARRAY_NOTE }]);
}

export const INDEXED_ARRAY_NOTE = 'read as the object of its indexes: ["a"] is {"0": "a"}';

/**
 * An array that also takes one of its items alone (shared/paramTypes.ts, oneOrMany). Any
 * array is the list itself, so the item alone is every choice of an item but an array.
 */
function allowSingle(schema: JsonSchema): void {
  if (schema.type !== 'array' || schema.items === undefined) return;
  asChoice(schema, (array) => [array, withoutArrays(array.items as JsonSchema)]);
}

function withoutArrays(item: JsonSchema): JsonSchema {
  const branches = item.anyOf;
  if (!Array.isArray(branches)) return item;
  const kept = (branches as JsonSchema[]).filter((b) => b.type !== 'array');
  if (kept.length !== 1) return { ...item, anyOf: kept };
  const rest = { ...item };
  delete rest.anyOf;
  return { ...rest, ...kept[0] };
}

/** Top-level properties of an object schema, looking through anyOf/oneOf/allOf branches. */
export function topLevelProperties(
  schema: JsonSchema,
): { name: string; schema: JsonSchema; required: boolean }[] {
  const found = new Map<string, { schema: JsonSchema; required: boolean }>();
  collect(schema, found, true);
  return [...found].map(([name, v]) => ({ name, ...v }));
}

function collect(
  schema: JsonSchema,
  found: Map<string, { schema: JsonSchema; required: boolean }>,
  mayRequire: boolean,
): void {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  for (const [name, property] of Object.entries(properties)) {
    if (!found.has(name))
      found.set(name, { schema: property, required: mayRequire && required.has(name) });
  }
  // A property ignored under a condition (onlyUnless) keeps its rule in `else`: a parameter
  // listed alone cannot say "ignored when", so it shows the rule it has when it counts.
  const conditional = (schema.else as JsonSchema | undefined)?.properties as
    Record<string, JsonSchema> | undefined;
  for (const [name, rule] of Object.entries(conditional ?? {})) {
    const listed = found.get(name);
    if (listed) listed.schema = { ...rule, ...listed.schema };
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    // A property required by one branch of a union is not required by the whole.
    for (const branch of branches as JsonSchema[])
      collect(branch, found, mayRequire && key === 'allOf');
  }
}
