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

function containsOrdered(value: unknown, depth = 0): boolean {
  if (value instanceof OrderedObject) return true;
  if (depth > 3 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.length > 0 && containsOrdered(value[0], depth + 1);
  for (const v of Object.values(value)) if (containsOrdered(v, depth + 1)) return true;
  return false;
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
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const parts: string[] = [];
    for (const [k, v] of Object.entries(value)) {
      const s = write(v);
      if (s !== undefined) parts.push(`${JSON.stringify(k)}:${s}`);
    }
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(value);
}
