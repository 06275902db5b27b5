import { TAGS, type ApiMethod } from '../methods/method.js';
import { errorResponseComponents, errorSchemaId, headers, securitySchemes } from './components.js';
import { apiDescription } from './description.js';
import { toComponentSchemas, type JsonSchema, type NamedSchema } from './jsonSchema.js';
import { formParamsSchemaId, paramsSchemaId, pathItem, responseSchemaId } from './operations.js';
import { textEncodedSchema } from './textEncoding.js';
import { Account } from './responses/accountResponses.js';
import { Contact, ContactVariable } from './responses/contactResponses.js';
import { errorBodies, type ErrorStatus } from './responses/errorResponses.js';
import { FileValue, ListItem } from './responses/listItemResponses.js';
import { FieldDefinition, ListSchema } from './responses/listSchemaResponses.js';
import { ContactPageMeta, PageLinks, PageMeta } from './responses/pagingResponses.js';

export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema> } & Record<string, unknown>;
};

export interface DocumentOptions {
  methods: Iterable<ApiMethod>;
  /** BASE_URL: the absolute server entry */
  baseUrl: string;
}

/** The resource shapes, named so that every response refers to the same one. */
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

/**
 * OpenAPI 3.1 for the given methods, from the registry alone: each method's parameter
 * schema (the one it is validated with), summary, description and success responses;
 * resource shapes from `responses/`; the error bodies every method shares.
 */
export function buildOpenApiDocument({ methods, baseUrl }: DocumentOptions): OpenApiDocument {
  const list = [...methods].sort((a, b) => a.name.localeCompare(b.name));

  const params = toComponentSchemas(
    list.map((m) => ({ id: paramsSchemaId(m.name), schema: m.params })),
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
        m.success.flatMap((s) =>
          s.body ? [{ id: responseSchemaId(m.name, s.status), schema: s.body }] : [],
        ),
      ),
    ],
    'output',
  );

  // what a form body can carry of the same parameters (textEncoding.ts)
  const forms: Record<string, JsonSchema> = {};
  const paths: OpenApiDocument['paths'] = {};
  for (const m of list) {
    const schema = params[paramsSchemaId(m.name)] ?? {};
    const form = textEncodedSchema(schema, false);
    forms[formParamsSchemaId(m.name)] = form;
    paths[`/${m.name}`] = pathItem(m, schema, form);
  }
  const usedTags = new Set(list.map((m) => m.tag));

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
      schemas: { ...responses, ...params, ...forms },
      responses: errorResponseComponents(),
      headers,
      securitySchemes,
    },
  };
}
