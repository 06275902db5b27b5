// The reply serializer (stringifyJson) and the two values it writes itself.

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
    if (this.needsOwnWriter) leaveNativePass();
    return Object.fromEntries(this.entries);
  }
}

/**
 * JSON already written (by Postgres: contacts/contactJson.ts), placed into the answer as is.
 * Outside stringifyJson (a log line) it is parsed back, so it stays correct anywhere.
 */
export class JsonText {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    leaveNativePass();
    return JSON.parse(this.text);
  }
}

/** True while stringifyJson's (synchronous) JSON.stringify runs. */
let nativePass = false;
const NEEDS_OWN_WRITER = Symbol('needs own writer');

/** Inside the native pass, stops it at once: its answer would be wrong (or parse JsonText). */
function leaveNativePass(): void {
  if (nativePass) throw NEEDS_OWN_WRITER;
}

function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 2 ** 32 - 1;
}

/**
 * JSON.stringify that honours OrderedObject and JsonText; the app's reply serializer.
 * Natively first (no walk over large answers); only when that met a JsonText or an
 * OrderedObject with array-index keys is the answer written again here.
 */
export function stringifyJson(value: unknown): string {
  nativePass = true;
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (err) {
    if (err !== NEEDS_OWN_WRITER) throw err;
  } finally {
    nativePass = false;
  }
  return write(value) ?? 'null';
}

/**
 * Looks everywhere (every array item, any depth) for a JsonText or an OrderedObject with
 * array-index keys: JSON.stringify would parse the one and lose the other's order. Cheap next to the serialization itself,
 * and it stops at the first hit.
 */
function needsOwnWriter(value: unknown): boolean {
  if (value instanceof JsonText) return true;
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
  if (value instanceof JsonText) return value.text;
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
