import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { uuidv7 } from 'uuidv7';
import { queryRows } from '../../src/infra/db/client.js';
import { listSchemas } from '../../src/infra/db/schema/listSchemas.js';
import {
  insertItemRows,
  updateItemRows,
  type ChangedItemRow,
  type NewItemRow,
} from '../../src/lists/items/batchRows.js';
import { storedDocument } from '../../src/lists/items/itemSlots.js';
import type { ItemRow } from '../../src/lists/items/foundItem.js';
import { FieldsChanged, insertItemRow, updateItemRow } from '../../src/lists/items/itemRows.js';
import { NotFoundError } from '../../src/shared/domainErrors.js';
import { call } from '../helpers/call.js';
import { TEST_CITUS_URL } from '../helpers/env.js';
import {
  itemCount,
  makeList,
  markListDeleted,
  rawRecord,
  slotted,
  type TestList,
} from '../helpers/lists.js';
import { MANY_CALLS, testAppForFile } from '../helpers/testAppForFile.js';

/** The insert statement's guards: counter and record go together, or neither does. */
const t = testAppForFile({ env: MANY_CALLS, tenants: ['owner'] });

const changes = slotted({ a: 'x' }, { t1: 'x' });
/** `data` of a record whose every value is slotted: empty (thin documents) */
const NO_DATA = expect.toSatisfy((data: object) => Object.keys(data).length === 0);
/** a written row's stored values, its slots' included */
/** The record insertItemRow writes into `list`: `changes`, validated against its fields. */
const newItem = (list: TestList, now = new Date()) => ({
  ownerId: t.owner.accountId,
  listId: list.id,
  fieldsSeen: list.fields,
  changes,
  now,
});

const documentOf = (list: TestList, row: ItemRow | undefined) =>
  row && storedDocument(list.fields, row.data, row.slots);

describe('insertItemRow (addListItem: the record and the list counter together)', () => {
  it('writes the record, its slot and the counter together', async () => {
    const list = await makeList(t.db, t.owner, [{ slug: 'a', type: 'string' }]);
    const row = await insertItemRow(t.db, newItem(list, new Date('2024-01-01T00:00:00Z')));
    expect(await itemCount(t.db, list.id)).toBe(1);
    expect(await rawRecord(t.db, row.id)).toMatchObject({ t1: 'x', data: NO_DATA });
  });

  it('inserts nothing and reports FieldsChanged when the fields moved after validation', async () => {
    const list = await makeList(t.db, t.owner, [{ slug: 'a', type: 'string' }]);
    const moved = [{ ...list.fields[0]!, slot: 't2' }];
    await t.db.update(listSchemas).set({ fields: moved }).where(eq(listSchemas.id, list.id));
    await expect(insertItemRow(t.db, newItem(list))).rejects.toBeInstanceOf(FieldsChanged);
    expect(await itemCount(t.db, list.id)).toBe(0);
  });

  it('inserts nothing and answers 404 when the list was deleted meanwhile', async () => {
    const list = await makeList(t.db, t.owner, [{ slug: 'a', type: 'string' }]);
    await markListDeleted(t.db, list.id);
    const err = await insertItemRow(t.db, newItem(list)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as NotFoundError).param).toBe('schema_id');
    expect(await itemCount(t.db, list.id)).toBe(0);
  });

  it('updates nothing when the fields moved after validation (the caller validates again)', async () => {
    const list = await makeList(t.db, t.owner, [{ slug: 'a', type: 'string' }]);
    const row = await insertItemRow(t.db, newItem(list));
    const moved = [{ ...list.fields[0]!, slot: 't2' }];
    await t.db.update(listSchemas).set({ fields: moved }).where(eq(listSchemas.id, list.id));
    const update = slotted({ a: 'y' }, { t1: 'y' });
    expect(
      await updateItemRow(
        t.db,
        t.owner.accountId,
        list.id,
        row.id,
        list.fields,
        update,
        new Date(),
      ),
    ).toBeUndefined();
    expect(await rawRecord(t.db, row.id)).toMatchObject({ t1: 'x', data: NO_DATA });
    expect(
      await updateItemRow(
        t.db,
        t.owner.accountId,
        list.id,
        row.id,
        moved,
        slotted({ a: 'y' }, { t2: 'y' }),
        new Date(),
      ),
    ).toMatchObject({ data: NO_DATA, slots: { t2: 'y' } });
  });

  it('keeps the counter exact under 40 concurrent adds and deletes of one list', async () => {
    const list = await makeList(t.db, t.owner, [{ slug: 'a', type: 'string' }]);
    const adds = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call(
          t.app,
          'addListItem',
          { schema_id: list.id, data: { a: String(i) } },
          { key: t.owner.apiKey },
        ),
      ),
    );
    expect(adds.every((r) => r.status === 201)).toBe(true);
    expect(await itemCount(t.db, list.id)).toBe(40);
    const doomed = adds.slice(0, 15).map((r) => r.body.data.id as string);
    // every record deleted twice at once: exactly one of each pair succeeds
    const deletes = await Promise.all(
      [...doomed, ...doomed].map((id) =>
        call(t.app, 'deleteListItem', { item_id: id }, { key: t.owner.apiKey }),
      ),
    );
    expect(deletes.filter((r) => r.status === 204)).toHaveLength(15);
    expect(deletes.filter((r) => r.status === 404)).toHaveLength(15);
    expect(await itemCount(t.db, list.id)).toBe(25);
  });
});

describe('insertItemRows (addListItems and lists import: rows first, the list row last)', () => {
  const batch = (n: number, value = 'x'): NewItemRow[] =>
    Array.from({ length: n }, () => ({
      id: uuidv7(),
      changes: slotted({ a: value }, { t1: value }),
    }));

  it('writes every row, one event each, and moves the counter and version once', async () => {
    const list = await makeList(t.db, t.owner, [{ slug: 'a', type: 'string' }]);
    const before = await stored(list.id);
    await insertItemRows(t.db, t.owner.accountId, list.id, list.fields, batch(25), new Date());
    expect(await itemCount(t.db, list.id)).toBe(25);
    expect(await stored(list.id)).toEqual({ items: 25, events: 25, version: before.version + 1 });
  });

  it('writes nothing and reports FieldsChanged when the fields moved before the batch', async () => {
    const list = await makeList(t.db, t.owner, [{ slug: 'a', type: 'string' }]);
    const moved = [{ ...list.fields[0]!, slot: 't2' }];
    await t.db.update(listSchemas).set({ fields: moved }).where(eq(listSchemas.id, list.id));
    await expect(
      insertItemRows(t.db, t.owner.accountId, list.id, list.fields, batch(3), new Date()),
    ).rejects.toBeInstanceOf(FieldsChanged);
    expect(await stored(list.id)).toMatchObject({ items: 0, events: 0 });
  });

  it('answers 404 and writes nothing when the list was deleted before the batch', async () => {
    const list = await makeList(t.db, t.owner, [{ slug: 'a', type: 'string' }]);
    await markListDeleted(t.db, list.id);
    await expect(
      insertItemRows(t.db, t.owner.accountId, list.id, list.fields, batch(3), new Date()),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(await stored(list.id)).toMatchObject({ items: 0, events: 0 });
  });

  it('undoes its rows and events when the fields change while it waits for the list row', async () => {
    const list = await makeList(t.db, t.owner, [{ slug: 'a', type: 'string' }]);
    const before = await stored(list.id);
    const other = new pg.Client({ connectionString: t.database.url });
    await other.connect();
    try {
      // another writer holds the list's row: the batch writes its rows, then waits for it
      await other.query('begin');
      // by owner too: Citus locks rows of one shard only (FOR UPDATE across shards is refused)
      await other.query(
        'select 1 from list_schemas where owner_id = $1 and id = $2 for no key update',
        [t.owner.accountId, list.id],
      );
      const pending = insertItemRows(
        t.db,
        t.owner.accountId,
        list.id,
        list.fields,
        batch(5),
        new Date(),
      ).catch((e: unknown) => e);
      await waitForLockWait(other, list.id);
      const moved = [{ ...list.fields[0]!, slot: 't2' }];
      await other.query('update list_schemas set fields = $2 where id = $1', [
        list.id,
        JSON.stringify(moved),
      ]);
      await other.query('commit');
      expect(await pending).toBeInstanceOf(FieldsChanged);
    } finally {
      await other.end();
    }
    expect(await stored(list.id)).toEqual({ items: 0, events: 0, version: before.version });
    expect(await itemCount(t.db, list.id)).toBe(0);
  });

  it('keeps the counter exact when batches into one list run at once', async () => {
    const list = await makeList(t.db, t.owner, [{ slug: 'a', type: 'string' }]);
    const before = await stored(list.id);
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        insertItemRows(
          t.db,
          t.owner.accountId,
          list.id,
          list.fields,
          batch(50, `b${i}`),
          new Date(),
        ),
      ),
    );
    expect(await itemCount(t.db, list.id)).toBe(300);
    expect(await stored(list.id)).toEqual({ items: 300, events: 300, version: before.version + 6 });
  });
});

describe('updateItemRows (updateListItems and lists import --key: one statement per batch)', () => {
  const FIELDS = [
    { slug: 'a', type: 'string' },
    { slug: 'n', type: 'number' },
  ];
  async function listWith(count: number) {
    const list = await makeList(t.db, t.owner, FIELDS);
    const rows: NewItemRow[] = Array.from({ length: count }, (_, i) => ({
      id: uuidv7(),
      changes: slotted({ a: `r${i}`, n: i }, { t1: `r${i}`, n1: String(i) }),
    }));
    await insertItemRows(t.db, t.owner.accountId, list.id, list.fields, rows, new Date());
    return { list, ids: rows.map((r) => r.id) };
  }
  const change = (id: string, a: string) => ({ id, changes: slotted({ a }, { t1: a }) });
  const updateIn = (list: TestList, rows: ChangedItemRow[], now = new Date()) =>
    updateItemRows(t.db, t.owner.accountId, list.id, list.fields, rows, now);

  it('merges each row’s fields, writes only the slots it sets, one event each, the version once', async () => {
    const { list, ids } = await listWith(3);
    const before = await stored(list.id);
    const now = new Date('2030-01-01T00:00:00Z');
    const written = await updateIn(
      list,
      [change(ids[0]!, 'A'), { id: ids[2]!, changes: slotted({ n: 20 }, { n1: '20' }) }],
      now,
    );
    // the values come back in the slots: `data` keeps none of them (thin documents)
    expect(written?.get(ids[0]!)).toMatchObject({ data: NO_DATA, updatedAt: now });
    expect(documentOf(list, written?.get(ids[0]!))).toEqual({ a: 'A', n: 0 });
    expect(documentOf(list, written?.get(ids[2]!))).toEqual({ a: 'r2', n: 20 });
    expect(await rawRecord(t.db, ids[0]!)).toMatchObject({ t1: 'A', n1: '0' });
    expect(await rawRecord(t.db, ids[1]!)).toMatchObject({ t1: 'r1', n1: '1' });
    expect(await rawRecord(t.db, ids[2]!)).toMatchObject({ t1: 'r2', n1: '20' });
    expect(await stored(list.id)).toEqual({
      items: 3,
      events: before.events + 2,
      version: before.version + 1,
    });
  });

  it('applies batches over the same records one after the other when they run at once', async () => {
    const { list, ids } = await listWith(20);
    const before = await stored(list.id);
    const batches = await Promise.all(
      Array.from({ length: 6 }, (_, b) =>
        updateIn(
          list,
          ids.map((id) => ({ id, changes: slotted({ n: b }, { n1: String(b) }) })),
        ),
      ),
    );
    // each batch's statement reads the records after the list's lock: none misses a record
    expect(batches.every((written) => written?.size === 20)).toBe(true);
    expect(await stored(list.id)).toEqual({
      items: 20,
      events: before.events + 120,
      version: before.version + 6,
    });
  });

  it('writes the records in the list and answers which, when one is gone from it', async () => {
    const { list, ids } = await listWith(2);
    const other = await listWith(1);
    const before = await stored(list.id);
    const written = await updateIn(list, [change(ids[0]!, 'A'), change(other.ids[0]!, 'B')]);
    expect([...written!.keys()]).toEqual([ids[0]]);
    expect(await rawRecord(t.db, ids[0]!)).toMatchObject({ t1: 'A', data: NO_DATA });
    expect(await rawRecord(t.db, other.ids[0]!)).toMatchObject({ t1: 'r0' });
    expect(await stored(list.id)).toEqual({
      items: 2,
      events: before.events + 1,
      version: before.version + 1,
    });
  });

  it('writes nothing when `keep` refuses what was written (an all-or-nothing batch)', async () => {
    const { list, ids } = await listWith(2);
    const other = await listWith(1);
    const before = await stored(list.id);
    const rows = [change(ids[0]!, 'A'), change(other.ids[0]!, 'B')];
    const written = await updateItemRows(
      t.db,
      t.owner.accountId,
      list.id,
      list.fields,
      rows,
      new Date(),
      (found) => found.size === rows.length,
    );
    expect([...written!.keys()]).toEqual([ids[0]]);
    expect(await rawRecord(t.db, ids[0]!)).toMatchObject({ t1: 'r0', data: NO_DATA });
    expect(await stored(list.id)).toEqual(before);
  });

  it('writes nothing, not even the version, when no record is left', async () => {
    const { list } = await listWith(1);
    const other = await listWith(1);
    const before = await stored(list.id);
    const written = await updateIn(list, [change(other.ids[0]!, 'B')]);
    expect(written?.size).toBe(0);
    expect(await stored(list.id)).toEqual(before);
  });

  it('writes nothing when the fields moved after validation', async () => {
    const { list, ids } = await listWith(1);
    const moved = list.fields.map((f) => (f.slug === 'a' ? { ...f, slot: 't2' } : f));
    await t.db.update(listSchemas).set({ fields: moved }).where(eq(listSchemas.id, list.id));
    const before = await stored(list.id);
    const written = await updateIn(list, [change(ids[0]!, 'A')]);
    expect(written).toBeUndefined();
    expect(await rawRecord(t.db, ids[0]!)).toMatchObject({ t1: 'r0' });
    expect(await stored(list.id)).toEqual(before);
  });
});

/** A list's records, change events and version, as stored. */
async function stored(listId: string) {
  const [row] = await queryRows<{ items: number; events: number; version: number }>(
    t.db,
    sql`select (select count(*)::int from list_items where schema_id = ${listId}) as items,
               (select count(*)::int from changes where schema_id = ${listId}) as events,
               (select version::int from list_schemas where id = ${listId}) as version`,
  );
  return row!;
}

/** Until a statement waits for a lock: the batch's counter update, on the list's row. */
async function waitForLockWait(client: pg.Client, listId: string) {
  for (let i = 0; i < 200; i++) {
    // on Citus the wait is on the worker: citus_stat_activity shows every node's sessions
    const { rows } = await client.query(
      `select 1 from ${TEST_CITUS_URL ? 'citus_stat_activity' : 'pg_stat_activity'}
        where wait_event_type = 'Lock' and datname = current_database()`,
    );
    if (rows.length > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no statement waited for the row of list ${listId}`);
}
