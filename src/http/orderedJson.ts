/**
 * An object whose keys must be serialized in a given order. Plain JS objects put
 * integer-like keys ("2", "10") first, but list fields keep the order they were sent in
 * (spec 4.3), and a slug may be all digits.
 */
export class OrderedObject {
  constructor(readonly entries: ReadonlyArray<readonly [string, unknown]>) {}
}

/** JSON.stringify that honours OrderedObject; used as the app's reply serializer. */
export function stringifyJson(value: unknown): string {
  if (!containsOrdered(value)) return JSON.stringify(value);
  return write(value) ?? 'null';
}

/**
 * Looks everywhere (every array item, any depth): an OrderedObject that the fast path
 * missed would be written as its internals (`{"entries":[...]}`). The walk is cheap next
 * to the serialization itself and stops at the first hit.
 */
function containsOrdered(value: unknown): boolean {
  if (value instanceof OrderedObject) return true;
  if (value === null || typeof value !== 'object' || hasToJson(value)) return false;
  const children = Array.isArray(value) ? value : Object.values(value);
  for (const v of children) if (containsOrdered(v)) return true;
  return false;
}

function hasToJson(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function';
}

function write(value: unknown): string | undefined {
  if (value instanceof OrderedObject) {
    const parts: string[] = [];
    for (const [k, v] of value.entries) {
      const s = write(v);
      if (s !== undefined) parts.push(`${JSON.stringify(k)}:${s}`);
    }
    return `{${parts.join(',')}}`;
  }
  if (Array.isArray(value)) return `[${value.map((v) => write(v) ?? 'null').join(',')}]`;
  if (value !== null && typeof value === 'object' && !hasToJson(value)) {
    const parts: string[] = [];
    for (const [k, v] of Object.entries(value)) {
      const s = write(v);
      if (s !== undefined) parts.push(`${JSON.stringify(k)}:${s}`);
    }
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(value);
}
