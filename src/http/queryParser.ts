import qs from 'qs';
import { errors } from './httpErrors.js';

/**
 * qs limits, explicit because the defaults are wrong for this API: arrays above index 20
 * would become objects (30 fields, 100 tags need more), and unbounded depth or parameter
 * counts are a denial-of-service vector.
 */
export const QS_LIMITS = { depth: 5, arrayLimit: 200, parameterLimit: 2000 } as const;

const options: qs.IParseOptions = {
  ...QS_LIMITS,
  throwOnLimitExceeded: true,
  allowPrototypes: false,
  strictDepth: true,
};

/** Parses a query string or form body with bracket notation (`fields[0][name]`). */
export function parseParams(text: string): Record<string, unknown> {
  try {
    return qs.parse(text, options) as Record<string, unknown>;
  } catch (err) {
    if (err instanceof RangeError) {
      throw errors.badRequest(
        `Too many or too deeply nested parameters (limits: ${QS_LIMITS.parameterLimit} parameters, depth ${QS_LIMITS.depth}, ${QS_LIMITS.arrayLimit} array items).`,
      );
    }
    throw errors.badRequest('The parameters could not be parsed.');
  }
}

const FAILURE = Symbol('paramsParseFailure');

/**
 * The router's query string parser. It must never throw: a throw inside Fastify's router
 * escapes the error handler (in a real server it is an uncaught exception that stops the
 * process), so a failure travels to the route as a marker and is thrown there.
 */
export function parseQueryForRouter(text: string): Record<string | symbol, unknown> {
  try {
    return parseParams(text);
  } catch (err) {
    return { [FAILURE]: err };
  }
}

/** The parsed query of a request, rethrowing a failure the router recorded. */
export function queryParams(query: unknown): Record<string, unknown> {
  if (typeof query !== 'object' || query === null || Array.isArray(query)) return {};
  const failure = (query as Record<symbol, unknown>)[FAILURE];
  if (failure !== undefined) throw failure;
  return query as Record<string, unknown>;
}
