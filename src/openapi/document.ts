import type { ApiMethod } from '../methods/method.js';
import { errorResponseComponents, errorSchemaId, headers, securitySchemes } from './components.js';
import { apiDescription } from './description.js';
import { documentedParams } from './handlerParams.js';
import { toComponentSchemas, type JsonSchema, type NamedSchema } from './jsonSchema.js';
import { TAGS, type MethodDoc } from './methodDoc.js';
import { paramsSchemaId, pathItem, responseSchemaId } from './operations.js';
import { Account } from './responses/accounts.js';
import { Contact, ContactVariable } from './responses/contacts.js';
import { errorBodies, type ErrorStatus } from './responses/errors.js';
import { docFor } from './responses/index.js';
import { FileValue, ListItem } from './responses/listItems.js';
import { FieldDefinition, ListSchema } from './responses/listSchemas.js';
import { ContactPageMeta, PageLinks, PageMeta } from './responses/paging.js';

export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema> } & Record<string, unknown>;
};

export interface DocumentOptions {
  methods: Iterable<ApiMethod>;
  /** BASE_URL: the absolute server entry */
  baseUrl: string;
}

/** The resource shapes of spec 2, named so that every response refers to the same one. */
const RESOURCES: NamedSchema[] = [
  { id: 'Account', schema: Account },
  { id: 'FieldDefinition', schema: FieldDefinition },
  { id: 'ListSchema', schema: ListSchema },
  { id: 'FileValue', schema: FileValue },
  { id: 'ListItem', schema: ListItem },
  { id: 'ContactVariable', schema: ContactVariable },
  { id: 'Contact', schema: Contact },
  { id: 'PageLinks', schema: PageLinks },
  { id: 'PageMeta', schema: PageMeta },
  { id: 'ContactPageMeta', schema: ContactPageMeta },
];

/** A registered method nobody documented yet still appears (a test fails until it is). */
const UNDOCUMENTED: MethodDoc = {
  tag: 'Other',
  summary: 'Not documented yet',
  changesData: true,
  success: [{ status: 200, description: 'Success' }],
};

/**
 * OpenAPI 3.1 for the given methods: parameters from each method's own zod schema (the
 * one its handler validates with), responses from `responses/`, errors from spec 7.
 */
export function buildOpenApiDocument({ methods, baseUrl }: DocumentOptions): OpenApiDocument {
  const list = [...methods].sort((a, b) => a.name.localeCompare(b.name));
  const docs = new Map(list.map((m) => [m.name, docFor(m.name) ?? UNDOCUMENTED]));

  const params = toComponentSchemas(
    list.map((m) => ({ id: paramsSchemaId(m.name), schema: documentedParams(m) })),
    'input',
  );
  const responses = toComponentSchemas(
    [
      ...RESOURCES,
      ...Object.entries(errorBodies).map(([status, schema]) => ({
        id: errorSchemaId(Number(status) as ErrorStatus),
        schema,
      })),
      ...list.flatMap((m) =>
        (docs.get(m.name)?.success ?? []).flatMap((s) =>
          s.body ? [{ id: responseSchemaId(m.name, s.status), schema: s.body }] : [],
        ),
      ),
    ],
    'output',
  );

  const paths: OpenApiDocument['paths'] = {};
  for (const m of list) {
    paths[`/${m.name}`] = pathItem(
      m.name,
      docs.get(m.name) ?? UNDOCUMENTED,
      params[paramsSchemaId(m.name)] ?? {},
    );
  }
  const usedTags = new Set([...docs.values()].map((d) => d.tag));

  return {
    openapi: '3.1.0',
    info: { title: 'Listkeeper API', version: '1', description: apiDescription },
    servers: [
      // Relative first: resolved against wherever this document was fetched from.
      {
        url: `${new URL(baseUrl).pathname.replace(/\/+$/, '')}/api/v1`,
        description: 'This server',
      },
      { url: `${baseUrl}/api/v1`, description: 'BASE_URL' },
    ],
    security: [{ bearerAuth: [] }, { apiToken: [] }],
    tags: TAGS.filter((t) => usedTags.has(t)).map((name) => ({ name })),
    paths,
    components: {
      schemas: { ...responses, ...params },
      responses: errorResponseComponents(),
      headers,
      securitySchemes,
    },
  };
}
