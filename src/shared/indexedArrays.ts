/**
 * Text parameters in bracket notation cannot say whether `data[5]=x` is item 5 of an array or
 * the key "5" of an object: the query parser (src/http/queryParser.ts) builds an array without
 * its gaps, as array parameters expect, and remembers here, for every array it builds, the
 * indexes the text wrote. An object parameter that receives such an array (`data`, `filters`:
 * a slug may be all digits) reads it back keyed by those indexes, so `data[5]` stays the field
 * "5"; an array of objects that receives plain values reads them as one object's keys
 * (paramTypes.ts, oneOrMany).
 */
const writtenIndexes = new WeakMap<unknown[], string[]>();

/** Records that `compacted` came from text, its items at `indexes`. */
export function rememberIndexes(compacted: unknown[], indexes: string[]): void {
  writtenIndexes.set(compacted, indexes);
}

/** Whether `array` was built from bracket notation (a JSON body's arrays are not). */
export function isFromText(array: unknown[]): boolean {
  return writtenIndexes.has(array);
}

/** An array as the object of its indexes: the ones the text wrote, else 0, 1, 2, … */
export function indexKeyed(array: unknown[]): Record<string, unknown> {
  const indexes = writtenIndexes.get(array);
  return Object.fromEntries(array.map((v, i) => [indexes?.[i] ?? String(i), v]));
}
