import { sql } from 'drizzle-orm';
import { queryRows } from '../../infra/db/client.js';
import type { ListSchemaRow, StoredField } from '../../infra/db/schema/listSchemas.js';
import { pgTextArray } from '../../infra/db/textArray.js';
import { ValidationError, type ValidationErrors } from '../../shared/domainErrors.js';
import type { ItemContext } from '../context.js';
import { addItems } from '../items/addItems.js';
import type { ItemFailure } from '../../shared/itemOutcomes.js';
import { updateItems } from '../items/updateItems.js';
import { isSlotColumn } from '../slots.js';
import { keyOf, type ImportLine } from './importBatches.js';
import { holdsAlready } from './unchangedRecord.js';
import { listScope } from '../items/listScope.js';
import { slotColumnsSql, slotsOf, storedDocument } from '../items/itemSlots.js';

/** What a batch's records came to, added to the import's counts. */
export interface BatchCounts {
  imported: number;
  updated: number;
  unchanged: number;
}

/**
 * Writes one batch through addListItems' path (and, with a key field, updateListItems' for
 * records whose key value is already in the list; those that already hold every value of
 * their line are left alone). Refused records go to `fail` with their line.
 */
export async function writeBatch(
  ctx: ItemContext,
  list: ListSchemaRow,
  batch: ImportLine[],
  keyField: StoredField | undefined,
  counts: BatchCounts,
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
      else if (holdsAlready(list, found.document, record.data, ctx.cipher)) counts.unchanged++;
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
  /** every stored value of the record, its slots' included (itemSlots.ts) */
  document: Record<string, unknown>;
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
  const rows = await queryRows<{ id: string; data: Record<string, unknown>; k: string }>(
    ctx.db,
    isSlotColumn(slot)
      ? // One probe of the slot's index per value. `offset 0` keeps the planner from turning
        // this into one scan of the whole list, which it prefers while the table's statistics
        // do not know the list yet — right after a large import, when a run again starts.
        sql`select x.*, v.k from unnest(${pgTextArray(values)}::text[]) as v(k)
            cross join lateral (
              select id, data${slotColumnsSql()} from list_items
              where ${listScope(list.ownerId, list.id)}
                and ${sql.identifier(slot)} = v.k
              offset 0) x`
      : // no slot: the list's records read once, whatever the number of values
        sql`select id, data${slotColumnsSql()}, data->>${key}::text as k from list_items
            where ${listScope(list.ownerId, list.id)}
              and data->>${key}::text = any(${pgTextArray(values)}::text[])`,
  );
  return new Map(
    rows.map((r) => [r.k, { id: r.id, document: storedDocument(list.fields, r.data, slotsOf(r)) }]),
  );
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
