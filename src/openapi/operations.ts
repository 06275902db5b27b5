import type { ApiMethod, SuccessResponse } from '../methods/method.js';
import { errorResponseRefs, successHeaders } from './components.js';
import { topLevelProperties, type JsonSchema } from './jsonSchema.js';
import exampleAnswers from './exampleAnswers.json' with { type: 'json' };

export const paramsSchemaId = (method: string) => `${method}Params`;
export const responseSchemaId = (method: string, status: number) => `${method}Response${status}`;

const GET_NOTE =
  'GET: parameters in the query string. Nested values use bracket notation (`fields[0][name]=Price`, `filters[price]=>=,10`, `tags[0]=vip`); URL-encode special characters (`%` as `%25`). Query values are text: integers and booleans are also accepted as `"2"`, `"true"`/`"1"`.';
const POST_NOTE =
  'POST: parameters as a JSON body (`Content-Type: application/json`), or as form fields (`application/x-www-form-urlencoded`, nested values in bracket notation as in GET). The JSON body is the only way to send typed values as they are.';

/** The path item of one method: GET and POST, with the same parameters and responses. */
export function pathItem(doc: ApiMethod, params: JsonSchema): Record<string, unknown> {
  const { name } = doc;
  const paramsRef = { $ref: `#/components/schemas/${paramsSchemaId(name)}` };
  const properties = topLevelProperties(params);
  const anyRequired = properties.some((p) => p.required);
  const shared = {
    tags: [doc.tag],
    summary: doc.summary,
    responses: { ...successResponses(name, doc.success), ...errorResponseRefs() },
  };
  const callWith = doc.changesData
    ? 'This method changes data: call it with POST. Send an `Idempotency-Key` (or the `idempotency_key` parameter) to make a retry safe: the first answer is stored and replayed for 24 hours.'
    : 'A read: GET and POST answer alike.';
  const keyHeader = doc.changesData ? [IDEMPOTENCY_KEY_HEADER] : [];
  return {
    get: {
      ...shared,
      operationId: `${name}ViaGet`,
      description: [doc.description, callWith, GET_NOTE].filter(Boolean).join('\n\n'),
      parameters: [
        ...keyHeader,
        ...properties.map((p) => queryParameter(p.name, p.schema, p.required)),
      ],
    },
    post: {
      ...shared,
      operationId: name,
      ...(keyHeader.length > 0 ? { parameters: keyHeader } : {}),
      description: [doc.description, callWith, POST_NOTE].filter(Boolean).join('\n\n'),
      requestBody: {
        required: anyRequired,
        content: {
          'application/json': { schema: paramsRef, example: doc.example },
          'application/x-www-form-urlencoded': {
            schema: paramsRef,
            ...formEncoding(properties),
          },
        },
      },
    },
  };
}

/** The header that makes a write safe to retry (src/idempotency/). */
const IDEMPOTENCY_KEY_HEADER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Any 1 to 255 visible ASCII characters, unique per intended change (a UUID does). A repeat with the same key, method and parameters within 24 hours gets the first answer again, with `Idempotent-Replayed: true`; the same key with another method or parameters is a `422` under `idempotency_key`; a repeat while the first still runs is a `409`.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

/** An object, or values that hold objects (an array of them, a branch of an anyOf). */
function holdsObjects(schema: JsonSchema): boolean {
  if (schema.type === 'object' || '$ref' in schema) return true;
  if (schema.type === 'array' && schema.items) return holdsObjects(schema.items as JsonSchema);
  const branches = schema.anyOf;
  return Array.isArray(branches) && branches.some((b) => holdsObjects(b as JsonSchema));
}

/** An array of plain values, also as one branch of an anyOf (one value alone is a list of one). */
function holdsArray(schema: JsonSchema): boolean {
  if (schema.type === 'array') return true;
  const branches = schema.anyOf;
  return Array.isArray(branches) && branches.some((b) => holdsArray(b as JsonSchema));
}

/**
 * Form bodies nest as the query string does: objects (and arrays of objects) in bracket
 * notation (`fields[0][slug]=…`, `data[title]=…`), arrays of plain values repeated
 * (`tags=a&tags=b`, also `tags[]=a`).
 */
function formEncoding(properties: readonly { name: string; schema: JsonSchema }[]) {
  const encoding: Record<string, { style: string; explode: boolean }> = {};
  for (const p of properties) {
    if (holdsObjects(p.schema)) encoding[p.name] = { style: 'deepObject', explode: true };
    else if (holdsArray(p.schema)) encoding[p.name] = { style: 'form', explode: true };
  }
  return Object.keys(encoding).length > 0 ? { encoding } : {};
}

function queryParameter(name: string, schema: JsonSchema, required: boolean) {
  const nested = schema.type === 'object' || schema.type === 'array' || '$ref' in schema;
  return {
    name,
    in: 'query',
    required,
    schema,
    ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
    // deepObject is the OpenAPI name for bracket notation (`filters[slug]=…`).
    ...(nested ? { style: 'deepObject', explode: true } : {}),
  };
}

/**
 * The answer the server gave to a real call (scripts/example-answers.ts wrote them; a test
 * checks each against its schema), shown as the response's example.
 */
function exampleAnswer(method: string, status: number): unknown {
  return (exampleAnswers as Record<string, Record<string, unknown> | undefined>)[method]?.[
    String(status)
  ];
}

function successResponses(name: string, success: SuccessResponse[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of success) {
    const example = exampleAnswer(name, s.status);
    out[String(s.status)] = {
      description: s.description,
      headers: successHeaders,
      ...(s.body
        ? {
            content: {
              'application/json': {
                schema: { $ref: `#/components/schemas/${responseSchemaId(name, s.status)}` },
                ...(example === undefined ? {} : { example }),
              },
            },
          }
        : {}),
    };
  }
  return out;
}
