import type { Caller } from '../../admission/caller.js';
import type { ListSchemaRow, StoredField } from '../../infra/db/schema/listSchemas.js';
import type { ItemContext, ListsContext } from '../context.js';
import { isSlotColumn } from '../slots.js';
import { increasingStamps } from './batchStamps.js';
import { importBatches } from './importBatches.js';
import { writeBatch } from './importBatchWriter.js';
import { KeyedBatchScheduler } from './keyedBatchScheduler.js';
import type { SourceRecord } from './recordSources.js';

/** Batches in flight at once: one validated while the other is written. */
const IN_FLIGHT = 2;

export interface ImportCounts {
  lines: number;
  imported: number;
  updated: number;
  /** with `key`: records already holding every value of their line, left as they are */
  unchanged: number;
  failed: number;
}

export type ImportEvent =
  | { type: 'failure'; line: number; reason: string }
  | { type: 'note'; message: string }
  | ({ type: 'progress' } & ImportCounts);

/**
 * `lists import`: records from a file into a list, through addListItems' own path — the same
 * validation and codecs, contact and bot values checked per batch, one insert per 1000
 * records, each change in the change feed. A bad record is reported with its line and
 * skipped; the others are written. With `key` (a string field), a record whose key value is
 * already in the list updates that record instead, so an import cut short can be run again
 * without duplicates; a record that already holds every value of its line is left alone (no
 * write, no change event), so a run again rewrites only what differs. Two batches are in
 * flight at once (one validated while the other is written); with `key`, a batch waits while
 * one in flight holds any of its keys, so two batches never both insert one key, and a key's
 * later line finds the record its earlier one wrote.
 *
 * The file is cut into batches by importBatches.ts, run by keyedBatchScheduler.ts, timed by
 * batchStamps.ts and written by importBatchWriter.ts.
 */
export async function importItems(
  lists: ListsContext,
  list: ListSchemaRow,
  records: AsyncIterable<SourceRecord>,
  options: { key?: string },
  on: (event: ImportEvent) => void,
): Promise<ImportCounts> {
  const key = options.key;
  const keyField = key === undefined ? undefined : checkKeyField(list, key);
  if (keyField && !isSlotColumn(keyField.slot)) {
    on({
      type: 'note',
      message: `note: --key ${keyField.slug} has no index (string fields past a list's first three have none): each batch of 1000 reads the whole list`,
    });
  }
  const ctx: ItemContext = { ...lists, caller: ownerOf(list) };
  const counts: ImportCounts = { lines: 0, imported: 0, updated: 0, unchanged: 0, failed: 0 };
  const fail = (line: number, reason: string) => {
    counts.failed++;
    on({ type: 'failure', line, reason });
  };
  const seen = (record: SourceRecord) => {
    counts.lines++;
    if ('error' in record) fail(record.line, record.error);
  };
  const scheduler = new KeyedBatchScheduler(IN_FLIGHT);
  const nextStamp = increasingStamps(lists.clock);
  for await (const batch of importBatches(records, key, seen)) {
    await scheduler.submit(batch.keys, async () => {
      const stamp = nextStamp();
      await writeBatch({ ...ctx, clock: () => stamp }, list, batch.lines, keyField, counts, fail);
      on({ type: 'progress', ...counts });
    });
  }
  await scheduler.drain();
  return counts;
}

/** The operator acts as the list's owner: contact and bot values must be the owner's. */
function ownerOf(list: ListSchemaRow): Caller {
  return {
    accountId: list.ownerId,
    email: '',
    name: '',
    plan: 'pro',
    blocked: false,
    createdAt: new Date(0),
  };
}

export class ImportKeyError extends Error {}

/** The key's field, when it can be one: a string field whose stored values are plain. */
function checkKeyField(list: ListSchemaRow, key: string): StoredField {
  const field = list.fields.find((f) => f.slug === key);
  if (!field) throw new ImportKeyError(`--key ${key} is not a field of the list`);
  if (field.type !== 'string') throw new ImportKeyError(`--key ${key} must be a string field`);
  if (field.is_encryptable) {
    throw new ImportKeyError(`--key ${key} is encrypted: its stored values cannot be matched`);
  }
  return field;
}
