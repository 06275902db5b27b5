import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import type { OpenApiDocument } from '../../src/openapi/document.js';

// ajv-formats is CommonJS: its default export arrives wrapped under NodeNext.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

const DOC_ID = 'https://listkeeper.test/openapi.json';

export async function fetchDocument(app: FastifyInstance): Promise<OpenApiDocument> {
  const res = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`openapi.json answered ${res.statusCode}`);
  return res.json() as OpenApiDocument;
}

export interface ObservedResponse {
  status: number;
  body: unknown;
}

type Json = Record<string, unknown>;

/**
 * Checks real responses against the document: the status must be listed for the method's
 * POST (GET shares its responses) and the body must match that status's schema. Returns
 * the problems found, empty when the response conforms.
 */
export function responseChecker(doc: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, components: { schemas: doc.components.schemas } });
  const compiled = new Map<string, ValidateFunction>();

  const resolve = (value: Json): Json => {
    const ref = value.$ref;
    if (typeof ref !== 'string') return value;
    const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
    const target = (doc.components as Json)[section ?? '']?.[name as never] as Json | undefined;
    if (!target) throw new Error(`unresolvable ${ref}`);
    return target;
  };

  return function check(method: string, observed: ObservedResponse): string[] {
    const operation = doc.paths[`/${method}`]?.post as Json | undefined;
    if (!operation) return [`${method} is not in the document`];
    const responses = operation.responses as Record<string, Json>;
    const listed = responses[String(observed.status)];
    if (!listed) return [`${method}: status ${observed.status} is not documented`];
    const content = resolve(listed).content as Record<string, { schema: Json }> | undefined;
    const schema = content?.['application/json']?.schema;
    if (!schema) {
      const empty = observed.body === undefined || observed.body === '' || observed.body === null;
      return empty ? [] : [`${method}: status ${observed.status} documents no body, got one`];
    }
    const ref = String(schema.$ref);
    let validate = compiled.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOC_ID}${ref}` });
      compiled.set(ref, validate);
    }
    if (validate(observed.body)) return [];
    return (validate.errors ?? []).map(
      (e) => `${method} ${observed.status}: ${e.instancePath || '(body)'} ${e.message ?? ''}`,
    );
  };
}
