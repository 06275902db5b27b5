// The reply serializer (stringifyJson) and the two values it writes itself.

/**
 * An object whose keys must be serialized in a given order. Plain JS objects put
 * array-index keys ("2", "10") first, but list fields keep the order they were sent in
 * (createListSchema), and a slug may be all digits.
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

/** JSON.stringify natively, or undefined when that met what it cannot write right. */
function stringifyNatively(value: unknown): string | undefined {
  nativePass = true;
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (err) {
    if (err !== NEEDS_OWN_WRITER) throw err;
    return undefined;
  } finally {
    nativePass = false;
  }
}

/**
 * JSON.stringify that honours OrderedObject and JsonText. Natively first (no walk over large
 * answers); only when that met a JsonText or an OrderedObject with array-index keys is the
 * answer written again here.
 */
export function stringifyJson(value: unknown): string {
  return stringifyNatively(value) ?? pieces(value).join('');
}

/**
 * The app's reply serializer: stringifyJson, except that an answer written here goes out as
 * one Buffer, each piece copied once. A large page of JsonText joined into one string is slow
 * for V8 to build, and Node then scans it for its length and encodes it again to send it
 * (what this saves: docs/benchmarks.md, "Serializing, hashing and start-up").
 */
export function serializeReply(value: unknown): string | Buffer {
  return stringifyNatively(value) ?? utf8(pieces(value));
}

function utf8(parts: string[]): Buffer {
  let size = 0;
  for (const part of parts) size += Buffer.byteLength(part);
  // every byte is written below
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const part of parts) at += out.write(part, at);
  return out;
}

/**
 * Looks everywhere (every array item, any depth) for a JsonText or an OrderedObject with
 * array-index keys: JSON.stringify would parse the one and lose the other's order. Cheap next
 * to the serialization itself, and it stops at the first hit.
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

/** The JSON text of `value` as pieces to concatenate. */
function pieces(value: unknown): string[] {
  const out: string[] = [];
  if (!write(value, out)) out.push('null');
  return out;
}

/** Appends `value`'s JSON; false (nothing appended) where JSON.stringify writes nothing. */
function write(value: unknown, out: string[]): boolean {
  if (!needsOwnWriter(value)) {
    const text = JSON.stringify(value);
    if (text === undefined) return false;
    out.push(text);
  } else if (value instanceof JsonText) {
    out.push(value.text);
  } else if (value instanceof OrderedObject) {
    writeEntries(value.entries, out);
  } else if (Array.isArray(value)) {
    out.push('[');
    value.forEach((item, i) => {
      if (i > 0) out.push(',');
      if (!write(item, out)) out.push('null');
    });
    out.push(']');
  } else {
    writeEntries(Object.entries(value as object), out);
  }
  return true;
}

function writeEntries(entries: ReadonlyArray<readonly [string, unknown]>, out: string[]): void {
  out.push('{');
  let first = true;
  for (const [key, v] of entries) {
    const mark = out.length;
    if (!first) out.push(',');
    out.push(JSON.stringify(key), ':');
    if (write(v, out)) first = false;
    else out.length = mark;
  }
  out.push('}');
}
