import qs from 'qs';
import { rememberIndexes } from '../shared/indexedArrays.js';
import { errors } from './httpErrors.js';

/**
 * qs limits, explicit because the defaults are wrong for this API: arrays above index 20
 * would become objects (30 fields, 100 tags need more), and unbounded depth or parameter
 * counts are a denial-of-service vector.
 */
export const QS_LIMITS = { depth: 5, arrayLimit: 200, parameterLimit: 2000 } as const;

// qs's own limit errors are off: with them an index past `arrayLimit` (`filters[492]`, a field
// whose slug is all digits) is refused instead of read as a key. The limits are checked here.
const options: qs.IParseOptions = {
  depth: QS_LIMITS.depth,
  arrayLimit: QS_LIMITS.arrayLimit,
  parameterLimit: Infinity,
  allowPrototypes: false,
  allowSparse: true,
  strictDepth: true,
};

const CANONICAL_INDEX = /^(0|[1-9]\d*)$/;

class LimitExceeded extends RangeError {}

/** Parses a query string or form body with bracket notation (`fields[0][name]`). */
export function parseParams(text: string): Record<string, unknown> {
  try {
    if (partsOf(text) > QS_LIMITS.parameterLimit) throw new LimitExceeded();
    return settled(qs.parse(text, options)) as Record<string, unknown>;
  } catch (err) {
    if (err instanceof RangeError) {
      throw errors.badRequest(
        `Too many or too deeply nested parameters (limits: ${QS_LIMITS.parameterLimit} parameters, depth ${QS_LIMITS.depth}, ${QS_LIMITS.arrayLimit} array items).`,
      );
    }
    throw errors.badRequest('The parameters could not be parsed.');
  }
}

/** How many `&`-separated parts qs will read, counted without splitting the text twice. */
function partsOf(text: string): number {
  let parts = 1;
  for (let at = text.indexOf('&'); at !== -1; at = text.indexOf('&', at + 1)) parts++;
  return parts;
}

/**
 * Arrays without their gaps (`a[3]=x` alone is `["x"]`), the indexes written remembered for
 * object parameters (src/shared/indexedArrays.ts); more than `arrayLimit` items, which qs
 * turns into an object of indexes (`a[]`, `a=` repeated), refused.
 */
function settled(value: unknown): unknown {
  if (Array.isArray(value)) {
    const indexes = Object.keys(value);
    const items = indexes.map((i) => settled(value[Number(i)]));
    rememberIndexes(items, indexes);
    return items;
  }
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length > QS_LIMITS.arrayLimit && keys.every((k) => CANONICAL_INDEX.test(k))) {
    throw new LimitExceeded();
  }
  for (const key of keys) record[key] = settled(record[key]);
  return record;
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
