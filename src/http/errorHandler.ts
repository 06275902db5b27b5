import { maxHeaderSize } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../infra/db/databaseErrors.js';
import { DomainError, ValidationError } from '../shared/domainErrors.js';
import { ApiError, errors, fromDomainError } from './httpErrors.js';
import { expectsJson } from './expectsJson.js';

export const BODY_LIMIT_BYTES = 1_048_576;

/**
 * Node's limit on the request line and headers together (16 KiB unless the operator sets
 * `--max-http-header-size`): beyond it the answer is Fastify's `431`, before any route runs.
 */
export const MAX_HEADER_KIB = Math.floor(maxHeaderSize / 1024);

/** The one place errors become responses. Unexpected failures are logged once, with cause. */
export function createErrorHandler(baseUrl: string) {
  return function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
    if (error instanceof ValidationError && !expectsJson(request)) {
      // the API conventions: clients that do not ask for JSON get Laravel's redirect back.
      const referer = request.headers.referer;
      return reply
        .code(302)
        .header('location', referer || baseUrl)
        .send();
    }
    const apiError = toApiError(error, request);
    return reply.code(apiError.status).headers(apiError.headers).send(apiError.body);
  };
}

function toApiError(error: FastifyError, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof DomainError) return fromDomainError(error);
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return errors.payloadTooLarge(BODY_LIMIT_BYTES);
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return errors.badRequest(
      'Send parameters as application/json or application/x-www-form-urlencoded.',
    );
  }
  if (error.code?.startsWith('FST_ERR_CTP_') || error instanceof SyntaxError) {
    return errors.badRequest('The request body is not valid JSON.');
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    return errors.unavailable();
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return errors.badRequest('The request could not be read.');
  }
  request.log.error({ err: error }, 'unexpected error');
  return errors.serverError(String(request.id));
}

/**
 * Errors Fastify meets before routing (a malformed escape in the path, an overlong method
 * name). Left to Fastify they bypass the error handler and echo the path, which may hold
 * a key; here they get the catalog's shapes.
 */
export function handleFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const apiError =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? errors.notFound()
      : errors.badRequest('The request URL is not valid.');
  // No route hooks run this early, so the request id header is set here.
  return reply.code(apiError.status).header('x-request-id', String(request.id)).send(apiError.body);
}
