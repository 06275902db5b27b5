import { MAX_HEADER_KIB } from '../http/errorHandler.js';
import { QS_LIMITS } from '../http/queryParser.js';
import type { ApiMethod, SuccessResponse } from '../methods/method.js';
import { errorResponseRefs, successHeaders } from './components.js';
import { topLevelProperties, type JsonSchema } from './jsonSchema.js';
import { BRACKET_NOTATION, textEncodedSchema, textStyle } from './textEncoding.js';
import exampleAnswers from './exampleAnswers.json' with { type: 'json' };

export const paramsSchemaId = (method: string) => `${method}Params`;
export const formParamsSchemaId = (method: string) => `${method}FormParams`;
export const responseSchemaId = (method: string, status: number) => `${method}Response${status}`;

const TEXT_LIMITS = `at most ${QS_LIMITS.arrayLimit} items in any array, ${QS_LIMITS.parameterLimit} parameters and ${QS_LIMITS.depth} levels of brackets (\`400\` beyond)`;
const GET_NOTE = `GET: parameters in the query string. Nested values use bracket notation (\`fields[0][name]=Price\`, \`filters[price]=>=,10\`, \`tags[0]=vip\` or \`tags=vip\`); URL-encode special characters (\`%\` as \`%25\`). Query values are text: integers and booleans are also accepted as \`"2"\`, \`"true"\`/\`"1"\`; there is no null (leave the parameter out, or send it blank), and an empty array or object sends nothing. A query string holds ${TEXT_LIMITS}, and the request line with the headers must fit in ${MAX_HEADER_KIB} KiB (\`431\` beyond): send larger requests as POST.`;
const POST_NOTE = `POST: parameters as a JSON body (\`Content-Type: application/json\`), or as form fields (\`application/x-www-form-urlencoded\`, nested values in bracket notation as in GET, ${TEXT_LIMITS}). The JSON body is the only way to send typed values as they are, null, empty arrays and batches of more than ${QS_LIMITS.arrayLimit} items.`;

/** The path item of one method: GET and POST, with the same parameters and responses. */
export function pathItem(
  doc: ApiMethod,
  params: JsonSchema,
  form: JsonSchema,
): Record<string, unknown> {
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
            schema: { $ref: `#/components/schemas/${formParamsSchemaId(name)}` },
            ...formEncoding(form),
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

/**
 * Form bodies nest as the query string does, each field in the style its text-encoded schema
 * takes (textEncoding.ts).
 */
function formEncoding(form: JsonSchema) {
  const encoding: Record<string, JsonSchema> = {};
  for (const p of topLevelProperties(form)) {
    const { style } = textStyle(p.name, p.schema);
    if (Object.keys(style).length > 0) encoding[p.name] = style;
  }
  return Object.keys(encoding).length > 0 ? { encoding } : {};
}

function queryParameter(name: string, value: JsonSchema, required: boolean) {
  const { schema, style } = textStyle(name, textEncodedSchema(value));
  const notation = style[BRACKET_NOTATION];
  const description = [
    typeof schema.description === 'string' ? schema.description.replace(/\.?$/, '.') : undefined,
    typeof notation === 'string'
      ? `In bracket notation (\`${notation}\`), which no OpenAPI style describes.`
      : undefined,
  ].filter(Boolean);
  return {
    name,
    in: 'query',
    required,
    schema,
    ...(description.length > 0 ? { description: description.join(' ') } : {}),
    ...style,
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
