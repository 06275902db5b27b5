import { z } from 'zod';
import {
  BLANK_IS_UNSENT,
  DOCUMENTED_AS,
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
      // zod writes its own regex next to `format`; the format alone reads better.
      if (typeof jsonSchema.format === 'string' && typeof jsonSchema.pattern === 'string') {
        delete jsonSchema.pattern;
      }
      const meta = io === 'input' ? z.globalRegistry.get(zodSchema) : undefined;
      if (meta?.[BLANK_IS_UNSENT]) allowBlank(jsonSchema as JsonSchema);
      if (meta?.[SINGLE_AS_ARRAY]) allowSingle(jsonSchema as JsonSchema);
      const documented = (jsonSchema as JsonSchema)[DOCUMENTED_AS];
      if (documented !== undefined) {
        delete (jsonSchema as JsonSchema)[DOCUMENTED_AS];
        Object.assign(jsonSchema, documented);
      }
      const rules = (jsonSchema as JsonSchema)[SCHEMA_RULES];
      if (rules !== undefined) {
        delete (jsonSchema as JsonSchema)[SCHEMA_RULES];
        const all = (jsonSchema as JsonSchema).allOf;
        (jsonSchema as JsonSchema).allOf = [...(Array.isArray(all) ? all : []), rules];
      }
    },
  });
  const out: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    // Each entry is a component of the document, not a standalone schema with its own id.
    const rest: JsonSchema = { ...schema };
    delete rest.$schema;
    delete rest.$id;
    out[id] = rest;
  }
  return out;
}

const BLANK_BRANCHES: JsonSchema[] = [{ type: 'null' }, { type: 'string', pattern: '^\\s*$' }];

/**
 * The one blank rule in the document's types: the value as described, or null, or text that
 * is empty or only whitespace — all of which mean "not sent" (shared/paramTypes.ts).
 */
function allowBlank(schema: JsonSchema): void {
  const branches = schema.anyOf;
  if (Array.isArray(branches) && branches.some((b) => (b as JsonSchema).type === 'null')) return;
  const { description, ...value } = schema;
  delete value[BLANK_IS_UNSENT];
  for (const key of Object.keys(schema)) delete schema[key];
  if (description !== undefined) schema.description = description;
  schema.anyOf = [value, ...BLANK_BRANCHES];
}

/** An array that also takes one of its items alone (shared/paramTypes.ts, oneOrMany). */
function allowSingle(schema: JsonSchema): void {
  if (schema.type !== 'array' || schema.items === undefined) return;
  const { description, ...array } = schema;
  delete array[SINGLE_AS_ARRAY];
  for (const key of Object.keys(schema)) delete schema[key];
  if (description !== undefined) schema.description = description;
  schema.anyOf = [array, array.items as JsonSchema];
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
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    // A property required by one branch of a union is not required by the whole.
    for (const branch of branches as JsonSchema[])
      collect(branch, found, mayRequire && key === 'allOf');
  }
}
