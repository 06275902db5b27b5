import { parse } from 'csv-parse';
import type { Readable } from 'node:stream';
import type { StoredField } from '../../infra/db/schema/listSchemas.js';

/** One record of an import file: its line and its `data` (as addListItem takes it), or why not. */
export type SourceRecord =
  { line: number; data: Record<string, unknown> } | { line: number; error: string };

/** NDJSON: one JSON object per line (blank lines skipped); a BOM before the first is dropped. */
export async function* ndjsonRecords(lines: AsyncIterable<string>): AsyncGenerator<SourceRecord> {
  let line = 0;
  for await (const raw of lines) {
    line++;
    const text = (line === 1 ? raw.replace(/^\uFEFF/, '') : raw).trim();
    if (text === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      yield { line, error: 'not valid JSON' };
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      yield { line, error: 'not a JSON object' };
      continue;
    }
    yield { line, data: value as Record<string, unknown> };
  }
}

/** Field types whose values are objects: a CSV cell holds them as JSON text. */
const OBJECT_TYPES = new Set(['file', 'image']);

/**
 * CSV (RFC 4180: quoted cells may hold commas, quotes and line breaks; a BOM is dropped): a
 * header row of slugs, then one record per row. An empty cell is a value not sent; a `file`
 * or `image` cell is the value's JSON. Columns that are no field (id, created_at, …) are
 * ignored, as addListItem ignores keys that are no field. `line` is where the row starts.
 */
export async function* csvRecords(
  input: Readable,
  fields: readonly StoredField[],
): AsyncGenerator<SourceRecord> {
  const types = new Map(fields.map((f) => [f.slug, f.type]));
  const parser = input.pipe(
    parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true }),
  );
  let header: string[] | undefined;
  for await (const { record, info } of parser as AsyncIterable<{
    record: string[];
    info: { lines: number; records: number };
  }>) {
    const line = info.lines - countBreaks(record);
    if (!header) {
      header = record.map((h) => h.trim());
      continue;
    }
    if (record.length !== header.length) {
      yield { line, error: `${record.length} cells where the header has ${header.length}` };
      continue;
    }
    const data: Record<string, unknown> = {};
    let bad: string | undefined;
    for (const [i, slug] of header.entries()) {
      const cell = record[i]!;
      if (cell === '') continue;
      if (OBJECT_TYPES.has(types.get(slug) ?? '')) {
        try {
          data[slug] = JSON.parse(cell);
        } catch {
          bad = `the ${slug} cell is not the JSON of a ${types.get(slug)} value`;
        }
      } else data[slug] = cell;
    }
    yield bad ? { line, error: bad } : { line, data };
  }
}

/** Line breaks inside quoted cells: a row spanning lines starts that many lines earlier. */
function countBreaks(record: readonly string[]): number {
  let n = 0;
  for (const cell of record) for (const ch of cell) if (ch === '\n') n++;
  return n;
}
