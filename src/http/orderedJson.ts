/**
 * An object whose keys must be serialized in a given order. Plain JS objects put
 * array-index keys ("2", "10") first, but list fields keep the order they were sent in
 * (spec 4.3), and a slug may be all digits.
 */
export class OrderedObject {
  /** a key is an array index, which a plain object would move to the front */
  readonly needsOwnWriter: boolean;

  constructor(readonly entries: ReadonlyArray<readonly [string, unknown]>) {
    this.needsOwnWriter = entries.some(([key]) => isArrayIndex(key));
  }

  /**
   * Without array-index keys a plain object keeps the entries' order, so JSON.stringify can
   * write it natively: the common case, and several times faster than writing it here.
   */
  toJSON(): Record<string, unknown> {
    return Object.fromEntries(this.entries);
  }
}

function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 2 ** 32 - 1;
}

/** JSON.stringify that honours OrderedObject; used as the app's reply serializer. */
export function stringifyJson(value: unknown): string {
  return write(value) ?? 'null';
}

/**
 * Looks everywhere (every array item, any depth) for an OrderedObject with array-index keys:
 * one that JSON.stringify met would lose its order. Cheap next to the serialization itself,
 * and it stops at the first hit.
 */
function needsOwnWriter(value: unknown): boolean {
  if (value instanceof OrderedObject) {
    if (value.needsOwnWriter) return true;
    for (const [, v] of value.entries) if (needsOwnWriter(v)) return true;
    return false;
  }
  if (value === null || typeof value !== 'object' || hasToJson(value)) return false;
  const children = Array.isArray(value) ? value : Object.values(value);
  for (const v of children) if (needsOwnWriter(v)) return true;
  return false;
}

function hasToJson(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function';
}

function write(value: unknown): string | undefined {
  if (!needsOwnWriter(value)) return JSON.stringify(value);
  if (value instanceof OrderedObject) return writeEntries(value.entries);
  if (Array.isArray(value)) return `[${value.map((v) => write(v) ?? 'null').join(',')}]`;
  return writeEntries(Object.entries(value as object));
}

function writeEntries(entries: ReadonlyArray<readonly [string, unknown]>): string {
  const parts: string[] = [];
  for (const [k, v] of entries) {
    const s = write(v);
    if (s !== undefined) parts.push(`${JSON.stringify(k)}:${s}`);
  }
  return `{${parts.join(',')}}`;
}
