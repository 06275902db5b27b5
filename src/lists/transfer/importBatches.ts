import type { SourceRecord } from './recordSources.js';

/** Records per batch: addListItems' own maximum, one insert each. */
export const IMPORT_BATCH = 1000;

/** A record of the file that parsed: its line and its `data`. */
export interface ImportLine {
  line: number;
  data: Record<string, unknown>;
}

/** Up to IMPORT_BATCH records, and the key values they hold (with `key`). */
export interface ImportBatch {
  lines: ImportLine[];
  keys: ReadonlySet<string>;
}

/**
 * Cuts the file's records into batches in file order. With `key`, a key value is in a batch
 * once: a repeat starts the next batch, where it finds the record its first line wrote.
 * Every record is shown to `seen` as it is read; those that did not parse go into no batch.
 */
export async function* importBatches(
  records: AsyncIterable<SourceRecord>,
  key: string | undefined,
  seen: (record: SourceRecord) => void,
): AsyncGenerator<ImportBatch> {
  let lines: ImportLine[] = [];
  let keys = new Set<string>();
  for await (const record of records) {
    seen(record);
    if ('error' in record) continue;
    const k = key === undefined ? undefined : keyOf(record.data, key);
    if (k !== undefined && keys.has(k)) {
      yield { lines, keys };
      lines = [];
      keys = new Set();
    }
    if (k !== undefined) keys.add(k);
    lines.push(record);
    if (lines.length >= IMPORT_BATCH) {
      yield { lines, keys };
      lines = [];
      keys = new Set();
    }
  }
  if (lines.length > 0) yield { lines, keys };
}

/** A record's key value: a string that is not blank, else none. */
export function keyOf(data: Record<string, unknown>, key: string): string | undefined {
  const v = data[key];
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}
