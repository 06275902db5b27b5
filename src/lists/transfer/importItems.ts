import { isDeepStrictEqual } from 'node:util';
import { sql } from 'drizzle-orm';
import type { Caller } from '../../admission/caller.js';
import { queryRows } from '../../infra/db/client.js';
import type { ListSchemaRow, StoredField } from '../../infra/db/schema/listSchemas.js';
import type { FieldCipher } from '../encryption/cipher.js';
import { ValidationError, type ValidationErrors } from '../../shared/domainErrors.js';
import type { ItemContext, ListsContext } from '../context.js';
import { addItems } from '../items/addItems.js';
import { updateItems } from '../items/updateItems.js';
import type { ItemFailure } from '../../shared/itemOutcomes.js';
import { validateData } from '../items/validateData.js';
import { isSlotColumn } from '../slots.js';
import type { SourceRecord } from './recordSources.js';
import { pgTextArray } from '../../infra/db/textArray.js';

/** Records per batch: addListItems' own maximum, one insert each. */
export const IMPORT_BATCH = 1000;

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
  /** the batches being written, with their keys */
  const inFlight = new Map<Promise<void>, ReadonlySet<string>>();
  const sharesAKey = (keys: ReadonlySet<string>) =>
    [...inFlight.values()].some((held) => [...keys].some((k) => held.has(k)));
  let failure: unknown;

  let lastStamp = 0;
  const submit = async (
    batch: { line: number; data: Record<string, unknown> }[],
    keys: ReadonlySet<string>,
  ) => {
    while (inFlight.size >= 2 || sharesAKey(keys)) await Promise.race(inFlight.keys());
    if (failure) throw failure;
    // Each batch's time is taken now, later than the batch before: records keep the file's
    // order (created_at, then id) however the two batches in flight finish.
    lastStamp = Math.max(lists.clock().getTime(), lastStamp + 1);
    const stamp = new Date(lastStamp);
    const job: Promise<void> = writeBatch(
      { ...ctx, clock: () => stamp },
      list,
      batch,
      keyField,
      counts,
      fail,
    )
      .then(() => on({ type: 'progress', ...counts }))
      .catch((err: unknown) => {
        failure ??= err;
      })
      .finally(() => inFlight.delete(job));
    inFlight.set(job, keys);
  };

  let batch: { line: number; data: Record<string, unknown> }[] = [];
  let keysInBatch = new Set<string>();
  for await (const record of records) {
    counts.lines++;
    if ('error' in record) {
      fail(record.line, record.error);
      continue;
    }
    const k = key === undefined ? undefined : keyOf(record.data, key);
    // one key once per batch: a repeat waits for the next batch, where it finds the first
    if (k !== undefined && keysInBatch.has(k)) {
      await submit(batch, keysInBatch);
      batch = [];
      keysInBatch = new Set();
    }
    if (k !== undefined) keysInBatch.add(k);
    batch.push(record);
    if (batch.length >= IMPORT_BATCH) {
      await submit(batch, keysInBatch);
      batch = [];
      keysInBatch = new Set();
    }
  }
  if (batch.length > 0) await submit(batch, keysInBatch);
  while (inFlight.size > 0) await Promise.all(inFlight.keys());
  if (failure) throw failure;
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

function keyOf(data: Record<string, unknown>, key: string): string | undefined {
  const v = data[key];
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

async function writeBatch(
  ctx: ItemContext,
  list: ListSchemaRow,
  batch: { line: number; data: Record<string, unknown> }[],
  keyField: StoredField | undefined,
  counts: ImportCounts,
  fail: (line: number, reason: string) => void,
) {
  let fresh = batch;
  if (keyField !== undefined) {
    const key = keyField.slug;
    const existing = await existingByKey(ctx, list, keyField, batch);
    fresh = [];
    const changed: { line: number; itemId: string; data: Record<string, unknown> }[] = [];
    for (const record of batch) {
      const found = existing.get(keyOf(record.data, key) ?? '');
      if (found === undefined) fresh.push(record);
      else if (holdsAlready(list, found.data, record.data, ctx.cipher)) counts.unchanged++;
      else changed.push({ ...record, itemId: found.id });
    }
    // one key once per batch, so each record at most once: one statement for all
    if (changed.length > 0) {
      const { outcomes } = await updateItems(ctx, list.id, changed, false);
      for (const outcome of outcomes) {
        if (!('error' in outcome)) counts.updated++;
        else fail(changed[outcome.index]!.line, reasonOf(outcome));
      }
    }
  }
  if (fresh.length === 0) return;
  const { outcomes } = await addItems(
    ctx,
    list.id,
    fresh.map((r) => r.data),
    false,
  );
  for (const outcome of outcomes) {
    if (!('error' in outcome)) counts.imported++;
    else fail(fresh[outcome.index]!.line, reasonOf(outcome));
  }
}

interface StoredRecord {
  id: string;
  data: Record<string, unknown>;
}

/** The records of the list whose key field holds one of the batch's key values. */
async function existingByKey(
  ctx: ItemContext,
  list: ListSchemaRow,
  keyField: StoredField,
  batch: readonly { data: Record<string, unknown> }[],
): Promise<Map<string, StoredRecord>> {
  const { slug: key, slot } = keyField;
  const values = [...new Set(batch.flatMap((r) => keyOf(r.data, key) ?? []))];
  if (values.length === 0) return new Map();
  const rows = await queryRows<StoredRecord & { k: string }>(
    ctx.db,
    isSlotColumn(slot)
      ? // One probe of the slot's index per value. `offset 0` keeps the planner from turning
        // this into one scan of the whole list, which it prefers while the table's statistics
        // do not know the list yet — right after a large import, when a run again starts.
        sql`select x.id, x.data, v.k from unnest(${pgTextArray(values)}::text[]) as v(k)
            cross join lateral (
              select id, data from list_items
              where owner_id = ${list.ownerId} and schema_id = ${list.id}
                and ${sql.identifier(slot)} = v.k
              offset 0) x`
      : // no slot: the list's records read once, whatever the number of values
        sql`select id, data, data->>${key}::text as k from list_items
            where owner_id = ${list.ownerId} and schema_id = ${list.id}
              and data->>${key}::text = any(${pgTextArray(values)}::text[])`,
  );
  return new Map(rows.map((r) => [r.k, { id: r.id, data: r.data }]));
}

/**
 * Whether updating the record with `line` would change nothing: every value the line sends,
 * validated as updateListItem validates it, equals the stored one (an encrypted value
 * compared opened). A line that does not validate is not "held": the update reports it.
 */
function holdsAlready(
  list: ListSchemaRow,
  stored: Record<string, unknown>,
  line: Record<string, unknown>,
  cipher: FieldCipher,
): boolean {
  let values;
  try {
    values = validateData(list.fields, line, 'update');
  } catch {
    return false;
  }
  for (const field of list.fields) {
    if (!values.has(field.slug)) continue;
    const sent = values.get(field.slug);
    const held = stored[field.slug];
    if (!field.is_encryptable) {
      if (!isDeepStrictEqual(held ?? null, sent ?? null)) return false;
      continue;
    }
    if (!cipher.isEnvelope(held)) {
      if ((held ?? null) === null && sent === null) continue;
      return false;
    }
    try {
      if (!isDeepStrictEqual(JSON.parse(cipher.decrypt(held)), sent)) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/** `items.3.title: The items.3.title field is required.` → `The title field is required.` */
function describeErrors(errors: ValidationErrors): string {
  return Object.values(errors)
    .flat()
    .map((m) => m.replace(/\b(?:items\.\d+|data)\./g, ''))
    .join(' ');
}

function reasonOf({ error }: ItemFailure): string {
  return error instanceof ValidationError ? describeErrors(error.errors) : error.message;
}
