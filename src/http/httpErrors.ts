import {
  ContendedError,
  CursorExpiredError,
  DomainError,
  ForbiddenError,
  ListCapReachedError,
  NotFoundError,
  ValidationError,
} from '../shared/domainErrors.js';

/**
 * The error catalog: one factory per error shape of the error rules. The pipeline throws these, the
 * domain throws DomainErrors (shared/domainErrors.ts) that `fromDomainError` turns into these, and
 * `errorHandler.ts` is the only place that turns either into a response.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.message === 'string' ? body.message : String(body.error ?? status));
  }
}

/** The HTTP methods an API path answers (HEAD as GET without a body). */
const API_VERBS = 'GET, HEAD, POST';

export const errors = {
  /** 401: no key, wrong key or regenerated key (the authentication rules). */
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
  notFound: () => new ApiError(404, { error: 'not_found', message: 'Not found.' }),
  /** 405: an HTTP method other than GET, HEAD or POST on an API path */
  methodNotAllowed: (verb: string) =>
    new ApiError(
      405,
      {
        error: 'method_not_allowed',
        message: `The ${truncate(verb)} method is not supported here. Supported methods: GET, HEAD, POST.`,
      },
      { allow: API_VERBS },
    ),
  /** 409: the first request with this Idempotency-Key is still running */
  idempotencyKeyInUse: () =>
    new ApiError(
      409,
      {
        error: 'idempotency_key_in_use',
        message:
          'A request with this idempotency key is still being processed; retry once it has finished.',
      },
      { 'retry-after': '1' },
    ),
  methodNotFound: (name: string) =>
    new ApiError(404, { error: 'not_found', message: `Unknown method ${truncate(name)}.` }),
  /** 410: deprecated method past its sunset date (the versioning rules). */
  methodRemoved: (name: string) =>
    new ApiError(410, {
      error: `The method ${name} has been removed.`,
      code: 'method_removed',
    }),
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
  unavailable: (retryAfterSeconds = 5, message = 'The service is temporarily unavailable.') =>
    new ApiError(
      503,
      { error: 'service_unavailable', message },
      { 'retry-after': String(retryAfterSeconds) },
    ),
  serverError: (requestId: string) =>
    new ApiError(500, { error: 'server_error', request_id: requestId }),
};

/** The status and body of a domain error (the error rules): 404 names the parameter, 422 lists them all. */
export function fromDomainError(error: DomainError): ApiError {
  if (error instanceof ValidationError) {
    return new ApiError(422, { message: error.message, errors: error.errors });
  }
  if (error instanceof NotFoundError) {
    return new ApiError(404, {
      message: error.message,
      error: 'not_found',
      errors: { [error.param]: [error.message] },
    });
  }
  if (error instanceof ListCapReachedError) {
    // The list cap of createListSchema: both keys carry the message.
    return new ApiError(403, { message: error.message, error: error.message });
  }
  if (error instanceof CursorExpiredError) {
    return new ApiError(410, { message: error.message, error: 'gone', code: 'cursor_expired' });
  }
  if (error instanceof ContendedError) return errors.unavailable(1, error.message);
  if (error instanceof ForbiddenError) {
    return new ApiError(403, { message: error.message, error: 'forbidden' });
  }
  return new ApiError(500, { error: 'server_error' });
}

function truncate(s: string): string {
  return s.length > 64 ? `${s.slice(0, 64)}…` : s;
}
