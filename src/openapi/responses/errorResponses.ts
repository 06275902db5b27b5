import { z } from 'zod';

/**
 * The error bodies, one per status. They describe what `src/http/httpErrors.ts` builds;
 * a test checks every factory there against these.
 */
const ValidationErrors = z
  .record(z.string(), z.array(z.string()))
  .describe('Dotted parameter path (`fields.0.slug`, `data.<slug>`) → messages');

export const errorBodies = {
  400: z.object({ error: z.literal('bad_request'), message: z.string() }),
  401: z.object({ error: z.literal('unauthorized') }),
  402: z.object({ error: z.string(), code: z.literal('pro_required') }),
  403: z.object({ error: z.string(), message: z.string().optional() }),
  404: z.object({
    error: z.string().optional(),
    message: z.string().optional(),
    errors: ValidationErrors.optional().describe(
      'List, record and bot lookups name the parameter: `schema_id`, `item_id` or `bot_id`',
    ),
  }),
  409: z.object({ error: z.literal('idempotency_key_in_use'), message: z.string() }),
  410: z.object({ error: z.string(), code: z.literal('method_removed') }),
  413: z.object({ error: z.literal('payload_too_large'), message: z.string() }),
  422: z.object({ message: z.string(), errors: ValidationErrors }),
  429: z.object({ message: z.literal('Too Many Attempts.') }),
  // Fastify's own answer (its client error handler): the request never reaches the API
  431: z.object({
    error: z.literal('Request Header Fields Too Large'),
    message: z.string(),
    statusCode: z.literal(431),
  }),
  500: z.object({ error: z.literal('server_error'), request_id: z.string() }),
  503: z.object({ error: z.literal('service_unavailable'), message: z.string() }),
} as const;

export type ErrorStatus = keyof typeof errorBodies;

/** Component names and descriptions of the error responses. */
export const errorResponses: Record<ErrorStatus, { name: string; description: string }> = {
  400: { name: 'BadRequest', description: 'Malformed JSON body or unreadable parameters.' },
  401: {
    name: 'Unauthorized',
    description: 'No key, wrong key, or a regenerated key.',
  },
  402: { name: 'ProRequired', description: 'The key owner is not on the Pro plan.' },
  403: {
    name: 'Forbidden',
    description:
      "Account blocked, or the bot, list or record belongs to another account's project.",
  },
  404: { name: 'NotFound', description: 'Bot, contact, list or record not found.' },
  409: {
    name: 'IdempotencyKeyInUse',
    description:
      'A request with the same Idempotency-Key is still running: retry after `Retry-After` seconds.',
  },
  410: { name: 'MethodRemoved', description: 'The method was switched off after its sunset date.' },
  413: { name: 'PayloadTooLarge', description: 'The request body is too large' },
  422: {
    name: 'ValidationFailed',
    description: 'Validation failure; every failing parameter is listed under `errors`.',
  },
  429: {
    name: 'TooManyAttempts',
    description: 'Rate limit exceeded: wait `Retry-After` seconds.',
  },
  431: {
    name: 'HeadersTooLarge',
    description:
      'The request line and headers are larger than Node accepts (a GET with a long query string, most often): send the parameters as a POST body. Answered before the API reads the request, so without its headers.',
  },
  500: {
    name: 'ServerError',
    description: 'Unexpected failure; quote `request_id` when reporting.',
  },
  503: {
    name: 'Unavailable',
    description:
      'The database is unreachable, or a write kept meeting concurrent changes (a lock wait, a deadlock, the list’s fields changing under every attempt) and wrote nothing: retry after `Retry-After` seconds (with the same `Idempotency-Key`, since a connection lost mid-write cannot say whether it committed).',
  },
};
