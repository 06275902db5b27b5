/**
 * The error catalog: one factory per error shape of spec 7. Handlers throw these;
 * `errorHandler.ts` is the only place that turns them into responses.
 */
export type ValidationErrors = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.message === 'string' ? body.message : String(body.error ?? status));
  }
}

/** 422 — rendered as JSON, or as a redirect to clients that do not expect JSON (spec 1, rule 4). */
export class ValidationError extends ApiError {
  constructor(readonly errors: ValidationErrors) {
    super(422, { message: validationMessage(errors), errors });
  }
}

/** Laravel's summary line: the first message, plus how many more there are. */
function validationMessage(errors: ValidationErrors): string {
  const messages = Object.values(errors).flat();
  const first = messages[0] ?? 'The given data was invalid.';
  const rest = messages.length - 1;
  if (rest <= 0) return first;
  return `${first} (and ${rest} more error${rest === 1 ? '' : 's'})`;
}

export const errors = {
  /** 401: no key, wrong key or regenerated key (spec 5). */
  unauthorized: () => new ApiError(401, { error: 'unauthorized' }),
  /** 402: the key's owner is not on the Pro plan. */
  proRequired: () =>
    new ApiError(402, {
      error: 'The API is available on the Pro plan only.',
      code: 'pro_required',
    }),
  /** 403 for a blocked account. */
  accountBlocked: () =>
    new ApiError(403, { error: 'account_blocked', message: 'The account is blocked.' }),
  /** 403: object of another account (or reached only as a team member). */
  forbidden: (message = 'This action is unauthorized.') =>
    new ApiError(403, { message, error: 'forbidden' }),
  /** 403: the project is at its list cap (spec 4.3, 8); both keys say so, as the spec asks. */
  tooManyLists: (max: number) =>
    new ApiError(403, {
      message: `A project cannot have more than ${max} lists.`,
      error: `A project cannot have more than ${max} lists.`,
    }),
  /** 404 for a list lookup (spec 4.2). */
  listNotFound: () => notFoundOn('schema_id', 'List not found.'),
  /** 404 for a record lookup (spec 4.9). */
  itemNotFound: () => notFoundOn('item_id', 'List item not found.'),
  /** 404 for a bot that is not the caller's (spec 4.13). */
  botNotFound: () => notFoundOn('bot_id', 'Bot not found.'),
  notFound: () => new ApiError(404, { error: 'not_found', message: 'Not found.' }),
  methodNotFound: (name: string) =>
    new ApiError(404, { error: 'not_found', message: `Unknown method ${truncate(name)}.` }),
  /** 410: deprecated method past its sunset date (spec 9). */
  methodRemoved: (name: string) =>
    new ApiError(410, {
      error: `The method ${name} has been removed.`,
      code: 'method_removed',
    }),
  validation: (errs: ValidationErrors) => new ValidationError(errs),
  /** 422 with a single key. */
  invalid: (key: string, message: string) => new ValidationError({ [key]: [message] }),
  tooManyAttempts: (retryAfterSeconds: number, limit: number) =>
    new ApiError(
      429,
      { message: 'Too Many Attempts.' },
      {
        'retry-after': String(retryAfterSeconds),
        'x-ratelimit-limit': String(limit),
        'x-ratelimit-remaining': '0',
      },
    ),
  /** 429 for a client IP out of failed key attempts (no account, so no X-RateLimit headers). */
  tooManyFailedAttempts: (retryAfterSeconds: number) =>
    new ApiError(
      429,
      { message: 'Too Many Attempts.' },
      { 'retry-after': String(retryAfterSeconds) },
    ),
  badRequest: (message: string) => new ApiError(400, { error: 'bad_request', message }),
  payloadTooLarge: (limitBytes: number) =>
    new ApiError(413, {
      error: 'payload_too_large',
      message: `The request body is larger than ${limitBytes} bytes.`,
    }),
  unavailable: (retryAfterSeconds = 5) =>
    new ApiError(
      503,
      { error: 'service_unavailable', message: 'The service is temporarily unavailable.' },
      { 'retry-after': String(retryAfterSeconds) },
    ),
  serverError: (requestId: string) =>
    new ApiError(500, { error: 'server_error', request_id: requestId }),
};

function notFoundOn(key: string, message: string): ApiError {
  return new ApiError(404, { message, error: 'not_found', errors: { [key]: [message] } });
}

function truncate(s: string): string {
  return s.length > 64 ? `${s.slice(0, 64)}…` : s;
}
