import { sql, type SQL } from 'drizzle-orm';
import { pgTextArray } from '../../infra/db/textArray.js';
import { queryRows, type Database } from '../../infra/db/client.js';
import { listPartitionsNamed, onCitus } from '../../infra/db/engine.js';
import { listItems } from '../../infra/db/schema/listItems.js';
import { listSchemas, type StoredField } from '../../infra/db/schema/listSchemas.js';
import { domainErrors } from '../../shared/domainErrors.js';
import { nextVersion } from '../listVersion.js';
import { isLookupableId } from '../schemas/listSchemaRepository.js';
import { toItemRow, type ItemRow, type StoredItemRow } from './foundItem.js';
import { listGuard, refuseInsert } from './itemRows.js';
import { countInsertedBatch, transactionOr } from './batchTransaction.js';
import { listKeyInsert } from './listKeyInsert.js';
import { listKeyOf, recordInList } from './listScope.js';
import { SLOT_COLUMNS, slotSqlType, type SlotColumn } from '../slots.js';
import type { StoredChanges } from './storedRow.js';
import { slotColumnsSql } from './itemSlots.js';
import {
  STORED_JSON_COLUMNS,
  updatedRecord,
  type StoredRecord,
  type UpdatedValues,
} from './storedJson.js';
import {
  deletedItemChanges,
  itemChanges,
  itemChangesAfter,
  LIST_FOR_CHANGES,
  previousRow,
  type WrittenItem,
} from '../../changes/recordItems.js';

/*
 * The statements of the batch methods (addListItems, updateListItems, deleteListItems) and of
 * `lists import`: a whole batch of one list per statement, under the same guards as the
 * single-record statements of itemRows.ts.
 */

/** A record of a batch: its id, chosen before the insert, and what is written. */
export interface NewItemRow {
  id: string;
  changes: StoredChanges;
  /** its JSON to store with it (storedJson.ts) */
  stored?: StoredRecord;
}

/**
 * A batch's rows as one JSON parameter read by jsonb_to_recordset (alias `u`: `id`, `d` what
 * `data` keeps, one typed column per slot, `k` the slots a row sets, `s` the slugs whose
 * values those slots hold, `j` and `l` the JSON to store and its layout, storedJson.ts), so
 * the statement's text and its parameter count do not depend on the batch's size.
 */
function rowsOf(records: readonly Record<string, unknown>[]): SQL {
  const shape = SLOT_COLUMNS.map(
    (slot) => sql`, ${sql.identifier(slot)} ${sql.raw(slotSqlType(slot))}`,
  );
  return sql`jsonb_to_recordset(${JSON.stringify(records)}::jsonb)
    as u(id text, d jsonb, k text[], s text[], j text, l int${sql.join(shape)})`;
}

/**
 * Inserts a batch of records and moves the list's counter and version once, under the same
 * guard as insertItemRow (throws FieldsChanged or 404 alike). The rows travel as one JSON
 * parameter read by jsonb_to_recordset, so the statement's text and its parameter count do not
 * depend on the batch's size.
 *
 * Unlike the single insert, the list's row is locked last: the rows and their change events
 * are written first, checked against the list without a lock, and the counter update then
 * repeats the guard under the lock, undoing everything when the list changed in between. Two
 * batches into one list thus maintain their index entries at the same time and queue only for
 * the counter, where taking the lock first made the second wait for the first's whole insert.
 * New rows are invisible to everyone else until the commit, so nothing orders on them, and the
 * change feed orders by snapshot, not by the list's lock (docs/changes.md).
 */
export async function insertItemRows(
  db: Database,
  ownerId: number,
  listId: string,
  fieldsSeen: readonly StoredField[],
  rows: readonly NewItemRow[],
  now: Date,
): Promise<void> {
  if (rows.length === 0) return;
  const stamp = now.toISOString();
  const records = rows.map(({ id, changes, stored }) => ({
    id,
    d: changes.kept,
    j: stored?.json,
    l: stored?.layout,
    ...changes.slots,
  }));
  const columns = SLOT_COLUMNS.map((slot) => sql`, ${sql.identifier(slot)}`);
  const guard = listGuard(ownerId, listId, fieldsSeen);
  const key = await listKeyInsert(db, listId);
  const values = sql`u.d, ${stamp}::timestamptz, ${stamp}::timestamptz${key.value}${sql.join(SLOT_COLUMNS.map((slot) => sql`, u.${sql.identifier(slot)}`))}, u.j, u.l`;
  const into = sql`${listItems} (id, schema_id, owner_id, data, created_at, updated_at${key.column}${sql.join(columns)}${STORED_JSON_COLUMNS})`;
  const citus = await onCitus(db);
  const written = await transactionOr(
    db,
    async (tx) => {
      if (citus) {
        // the list's check, the rows, their events: a statement each (citusItemRows.ts)
        const live = await queryRows(tx, sql`select 1 from ${listSchemas} where ${guard}`);
        if (live.length === 0) return false;
        await tx.execute(
          sql`insert into ${into} select u.id, ${listId}, ${ownerId}::bigint, ${values} from ${rowsOf(records)}`,
        );
        await tx.execute(itemChangesAfter('list_item.created', ownerId, listId, rows));
      } else {
        const [inserted] = await queryRows<{ n: number }>(
          tx,
          sql`with list as (select ${LIST_FOR_CHANGES} from ${listSchemas} where ${guard}),
            inserted as (
              insert into ${into}
              select u.id, list.id, list.owner_id, ${values} from list, ${rowsOf(records)}
              returning id, data, created_at, updated_at${slotColumnsSql()}),
            feed as (${itemChanges('list_item.created', 'list', 'inserted')})
            select count(*)::int as n from inserted`,
        );
        if ((inserted?.n ?? 0) === 0) return false;
      }
      await countInsertedBatch(tx, guard, rows.length);
      return true;
    },
    () => false,
  );
  if (!written) await refuseInsert(db, ownerId, listId);
}

/**
 * The rows of `source` (alias `u`, with an `id` column), each with `columns` of its record
 * (by default its `tid`, the ctid): one probe of the primary key per id. `offset 0` keeps the
 * planner from joining the whole list instead, which it prefers while the table's statistics
 * do not know the list yet (as after a large import); for the same reason callers check the
 * list's id on the found row, and the probe names the list's key only as recordInList does.
 * The statement that then writes `where li.ctid = v.tid` names `li.owner_id` too: on Citus
 * that makes it one single-shard statement, run on the worker as written (without it Citus
 * plans the probe apart and refuses the ctid join). It names `li.list_key` as well: a ctid is
 * a place within one partition of list_items (migration 0021), and the list's key names the
 * partition.
 */
function probed(
  ownerId: number,
  source: SQL,
  columns: SQL = sql`ctid as tid`,
  /** the list whose partition holds the records (partitionOf) */
  listId?: string,
): SQL {
  const record =
    listId === undefined
      ? sql`owner_id = ${ownerId} and id = u.id`
      : recordInList('list_items', ownerId, listId, sql`u.id`);
  return sql`select u.*, found.* from ${source}
    cross join lateral (select ${columns} from ${listItems} where ${record} offset 0) found`;
}

/**
 * The list whose one partition `probed` reads, where a statement may name it (engine.ts,
 * listPartitionsNamed). Not on Citus, where the probe names the owner as a plain condition,
 * which routes it to the owner's shard.
 */
async function partitionOf(db: Database, listId: string): Promise<string | undefined> {
  return (await listPartitionsNamed(db)) ? listId : undefined;
}

/**
 * `probed`'s columns for a write that keeps each record's row as it was in the feed
 * (`previous`). The write's transaction has locked the list's row in an earlier statement, so
 * this statement's snapshot already sees every earlier write of the list: the row read is the
 * row the write replaces.
 */
const WITH_PREVIOUS = sql`ctid as tid, ${previousRow('list_items')} as previous`;

/** WITH_PREVIOUS on Citus, where `previous` travels through the service (citusItemRows.ts). */
const WITH_PREVIOUS_TEXT = sql`ctid as tid, ${previousRow('list_items')}::text as previous`;

/** Ids as `probed`'s source; one we never issued (a NUL cannot even be sent) is not found. */
const idsOf = (ids: readonly string[]) =>
  sql`unnest(${pgTextArray(ids.filter(isLookupableId))}::text[]) as u(id)`;

/** The records with these ids (of any of the owner's lists, with their list), by `probed`. */
export async function findItemRows(
  db: Database,
  ownerId: number,
  ids: readonly string[],
): Promise<(ItemRow & { schemaId: string })[]> {
  const rows = await queryRows<StoredItemRow & { schema_id: string }>(
    db,
    probed(ownerId, idsOf(ids), sql`schema_id, data, created_at, updated_at${slotColumnsSql()}`),
  );
  return rows.map((row) => ({ ...toItemRow(row), schemaId: row.schema_id }));
}

/** A record of a batch update: its id and the changes validated for it. */
export interface ChangedItemRow {
  id: string;
  changes: StoredChanges;
}

/**
 * updateItemRow for a batch of distinct records of one list: each row's sent fields merged
 * into its `data`, the slots it sets written, the list's version moved once, one change event
 * per record. Two statements in one transaction: the list's row is locked (and its guard
 * checked) first, as by every write of existing records, so the second statement's snapshot,
 * taken after the lock, already holds every change of the batch's records committed before;
 * it finds each record by `probed` and updates it where it lies. A record deleted since it
 * was looked up is not found there, as the writes' order has it: its delete came first.
 * Answers the rows written, by id, committed when `keep` says so of their ids (an
 * all-or-nothing batch missing a record does not keep the others); undefined, with nothing
 * written, when the list was deleted or its fields changed since validation: the caller
 * looks again.
 */
export async function updateItemRows(
  db: Database,
  ownerId: number,
  listId: string,
  fieldsSeen: readonly StoredField[],
  rows: readonly ChangedItemRow[],
  now: Date,
  keep: (written: ReadonlySet<string>) => boolean = () => true,
): Promise<Map<string, ItemRow> | undefined> {
  const records = rows.map(({ id, changes }) => ({
    id,
    d: changes.kept,
    k: Object.keys(changes.slots),
    s: changes.slotted,
    ...changes.slots,
  }));
  const slotAfter = (slot: SlotColumn) => {
    const column = sql.identifier(slot);
    return sql`case when ${slot} = any(v.k) then v.${column} else li.${column} end`;
  };
  const citus = await onCitus(db);
  const inPartition = await partitionOf(db, listId);
  const after: UpdatedValues = {
    row: 'li',
    // the slugs now in slots leave `data` (a record written before thin documents had both)
    data: sql`(li.data - v.s) || v.d`,
    updatedAt: sql`${now.toISOString()}::timestamptz`,
    slots: new Map(SLOT_COLUMNS.map((slot) => [slot, slotAfter(slot)])),
  };
  const update = (previous: SQL, layout: number) => sql`update ${listItems} li
      set ${updatedRecord(fieldsSeen, after, sql`${layout}::int`)}
    from (${probed(ownerId, rowsOf(records), previous, inPartition)}) v
    where li.ctid = v.tid and li.owner_id = ${ownerId} and li.list_key = ${listKeyOf(listId)}
      and li.schema_id = ${listId}
    returning li.id, li.data, li.created_at, li.updated_at${slotColumnsSql('li')}, v.previous`;
  /** undefined until the list's guard has passed */
  let written: StoredItemRow[] | undefined;
  const stored = await transactionOr(
    db,
    async (tx) => {
      const [locked] = await queryRows<{ layout: number }>(
        tx,
        sql`update ${listSchemas} set version = ${nextVersion}
            where ${listGuard(ownerId, listId, fieldsSeen)} returning layout`,
      );
      if (!locked) return tx.rollback();
      // on Citus the events are a statement of their own, after (citusItemRows.ts)
      const updated = citus
        ? await queryRows<StoredItemRow & WrittenItem>(
            tx,
            update(WITH_PREVIOUS_TEXT, locked.layout),
          )
        : await queryRows<StoredItemRow>(
            tx,
            sql`with list as (
                  select ${LIST_FOR_CHANGES} from ${listSchemas}
                  where owner_id = ${ownerId} and id = ${listId}),
                updated as (${update(WITH_PREVIOUS, locked.layout)}),
                feed as (${itemChanges('list_item.updated', 'list', 'updated')})
                select id, data, created_at, updated_at${slotColumnsSql()} from updated`,
          );
      written = updated;
      if (updated.length === 0 || !keep(new Set(updated.map((row) => row.id)))) tx.rollback();
      if (citus) await tx.execute(itemChangesAfter('list_item.updated', ownerId, listId, updated));
      return updated;
    },
    () => written,
  );
  return stored && new Map(stored.map((row) => [row.id, toItemRow(row)]));
}

/**
 * deleteItemRow for a batch of distinct records of one list: the list's row locked first (as
 * by the single delete), then one statement deletes the records found in the list (by
 * `probed`), drops the counter by their number, moves the version and records one change
 * each. Answers the ids deleted; the caller's `keep` decides, from them, whether the
 * transaction commits (an all-or-nothing batch with a missing record does not). Throws 404
 * when the list is gone.
 */
export async function deleteItemRows(
  db: Database,
  ownerId: number,
  listId: string,
  ids: readonly string[],
  keep: (deleted: ReadonlySet<string>) => boolean,
): Promise<ReadonlySet<string>> {
  const citus = await onCitus(db);
  const inPartition = await partitionOf(db, listId);
  const remove = (previous: SQL) => sql`delete from ${listItems} li
    using (${probed(ownerId, idsOf(ids), previous, inPartition)}) v
    where li.ctid = v.tid and li.owner_id = ${ownerId} and li.list_key = ${listKeyOf(listId)}
      and li.schema_id = ${listId}
    returning li.id, li.schema_id, v.previous`;
  let deleted: ReadonlySet<string> = new Set();
  await transactionOr(
    db,
    async (tx) => {
      const locked = await queryRows(
        tx,
        sql`select 1 from ${listSchemas}
            where owner_id = ${ownerId} and id = ${listId} and deleted_at is null
            for no key update`,
      );
      if (locked.length === 0) throw domainErrors.listNotFound();
      if (citus) {
        // the counter and the events after the delete, a statement each (citusItemRows.ts)
        const gone = await queryRows<WrittenItem>(tx, remove(WITH_PREVIOUS_TEXT));
        deleted = new Set(gone.map((row) => row.id));
        if (!keep(deleted)) tx.rollback();
        if (gone.length === 0) return;
        await tx.execute(
          sql`update ${listSchemas}
              set item_count = greatest(item_count - ${gone.length}, 0), version = ${nextVersion}
              where owner_id = ${ownerId} and id = ${listId}`,
        );
        await tx.execute(itemChangesAfter('list_item.deleted', ownerId, listId, gone));
        return;
      }
      const gone = await queryRows<{ id: string }>(
        tx,
        sql`with gone as (${remove(WITH_PREVIOUS)}),
            bumped as (
              update ${listSchemas}
              set item_count = greatest(item_count - (select count(*) from gone), 0),
                  version = ${nextVersion}
              where owner_id = ${ownerId} and id = ${listId} and exists (select 1 from gone)
              returning ${LIST_FOR_CHANGES}),
            feed as (${deletedItemChanges('bumped', 'gone')})
            select id from gone`,
      );
      deleted = new Set(gone.map((row) => row.id));
      if (!keep(deleted)) tx.rollback();
    },
    () => undefined,
  );
  return deleted;
}
