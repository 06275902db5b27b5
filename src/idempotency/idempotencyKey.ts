import { domainErrors } from '../shared/domainErrors.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_PARAM = 'idempotency_key';

/** 1 to 255 visible ASCII characters, as the IETF draft and Stripe read a key. */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * The request's Idempotency-Key: the header, else the `idempotency_key` parameter (for form
 * and query clients that cannot set headers). The parameter is removed either way, so no
 * method sees it and it is not part of the parameters a repeat must match. A key that is sent
 * but malformed is a 422 under `idempotency_key`.
 */
export function takeIdempotencyKey(
  header: string | string[] | undefined,
  params: Record<string, unknown>,
): string | undefined {
  const fromParams = params[IDEMPOTENCY_PARAM];
  delete params[IDEMPOTENCY_PARAM];
  const key = header ?? fromParams;
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
    throw domainErrors.invalid(
      IDEMPOTENCY_PARAM,
      'The idempotency key must be 1 to 255 visible ASCII characters.',
    );
  }
  return key;
}
