import { createHash } from 'node:crypto';

/**
 * What a repeat must match: the method and its parameters, with object keys in a fixed order
 * (a client may serialise the same body with its keys in another order).
 */
export function requestFingerprint(method: string, params: Record<string, unknown>): string {
  return createHash('sha256')
    .update(method)
    .update('\0')
    .update(canonicalJson(params))
    .digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
