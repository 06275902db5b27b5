import { BODY_LIMIT_BYTES, MAX_HEADER_KIB } from '../http/errorHandler.js';
import type { JsonSchema } from './jsonSchema.js';
import { errorResponses, type ErrorStatus } from './responses/errorResponses.js';

/** The authentication rules: the header, or `api_token` when a header cannot be set. */
export const securitySchemes = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description:
      "The API key from the profile's API tab: `Authorization: Bearer <API_KEY>`. The safer way.",
  },
  apiToken: {
    type: 'apiKey',
    in: 'query',
    name: 'api_token',
    description:
      'The key as the `api_token` parameter, in the URL or in the request body (JSON or form), for clients that cannot set a header. It is never logged.',
  },
};

const integer = { type: 'integer', minimum: 0 };

/** Rate-limit and deprecation headers, plus the request id every response carries. */
export const headers: Record<string, { description: string; schema: JsonSchema }> = {
  RateLimitLimit: {
    description: 'Requests allowed per minute for the account, all methods combined.',
    schema: integer,
  },
  RateLimitRemaining: {
    description: 'Requests left in the current minute.',
    schema: integer,
  },
  RetryAfter: { description: 'Seconds to wait before trying again.', schema: integer },
  Deprecation: {
    description: 'Present only on deprecated methods, with the value `true`.',
    schema: { type: 'string', enum: ['true'] },
  },
  Sunset: {
    description: 'Deprecated methods only: the HTTP-date from which the method answers `410`.',
    schema: { type: 'string' },
  },
  IdempotentReplayed: {
    description:
      'Present, with the value `true`, when the answer is the stored first answer to this Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
  RequestId: {
    description: 'Identifies the request in the service logs; quote it when reporting a problem.',
    schema: { type: 'string' },
  },
};

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Headers of a response that passed the rate limiter. */
export const successHeaders = {
  'X-RateLimit-Limit': ref('RateLimitLimit'),
  'X-RateLimit-Remaining': ref('RateLimitRemaining'),
  Deprecation: ref('Deprecation'),
  Sunset: ref('Sunset'),
  'Idempotent-Replayed': ref('IdempotentReplayed'),
  'X-Request-Id': ref('RequestId'),
};

const headersByStatus: Partial<Record<ErrorStatus, Record<string, unknown>>> = {
  429: {
    'Retry-After': ref('RetryAfter'),
    'X-RateLimit-Limit': ref('RateLimitLimit'),
    'X-RateLimit-Remaining': ref('RateLimitRemaining'),
  },
  409: { 'Retry-After': ref('RetryAfter') },
  503: { 'Retry-After': ref('RetryAfter') },
};

export const errorSchemaId = (status: ErrorStatus) => `Error${status}`;

/** `components.responses`: one per error status of the error rules (and of docs/decisions.md). */
export function errorResponseComponents(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [code, { name, description }] of Object.entries(errorResponses)) {
    const status = Number(code) as ErrorStatus;
    const extra =
      status === 413
        ? ` (limit: ${BODY_LIMIT_BYTES} bytes)`
        : status === 431
          ? ` (limit: ${MAX_HEADER_KIB} KiB)`
          : '';
    out[name] = {
      description: description + extra,
      headers:
        status === 431 ? {} : { 'X-Request-Id': ref('RequestId'), ...headersByStatus[status] },
      content: {
        'application/json': { schema: { $ref: `#/components/schemas/${errorSchemaId(status)}` } },
      },
    };
  }
  out.ValidationRedirect = {
    description:
      "Validation failure for a client that did not send `Accept: application/json`: a redirect to the `Referer`, else to the service's base address. Send the header to get the JSON `422` instead.",
    headers: { Location: { schema: { type: 'string' } } },
  };
  return out;
}

/** The error responses every method can give, referenced from each operation. */
export function errorResponseRefs(): Record<string, unknown> {
  const out: Record<string, unknown> = {
    '302': { $ref: '#/components/responses/ValidationRedirect' },
  };
  for (const [code, { name }] of Object.entries(errorResponses)) {
    out[code] = { $ref: `#/components/responses/${name}` };
  }
  return out;
}
