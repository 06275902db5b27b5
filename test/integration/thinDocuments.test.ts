import { sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/infra/db/client.js';
import type { StoredField } from '../../src/infra/db/schema/listSchemas.js';
import { createFieldCipher } from '../../src/lists/encryption/cipher.js';
import { toStoredChanges } from '../../src/lists/items/storedRow.js';
import { validateData } from '../../src/lists/items/validateData.js';
import { slotSqlType, type SlotColumn } from '../../src/lists/slots.js';
import { call } from '../helpers/call.js';
import { rawRecord } from '../helpers/lists.js';
import { testAppForFile } from '../helpers/testAppForFile.js';
import { createListViaApi } from '../helpers/viaApi.js';
import { listKeyInsert } from '../../src/lists/items/listKeyInsert.js';

/**
 * Thin documents (src/lists/items/itemSlots.ts): a slotted field's value is written to its
 * slot only, and every way of reading a record gives it back — the record, the page, the
 * change feed, an update's answer. Records written before, with every value in `data` as
 * well, read exactly as records written now.
 */
const t = testAppForFile({ tenants: ['owner'] });
const api = (method: string, params: Record<string, unknown>) =>
  call(t.app, method, params, { key: t.owner.apiKey });

const FIELDS = [
  { name: 'City', slug: 'city', type: 'string', is_required: false },
  { name: 'Qty', slug: 'qty', type: 'number', is_required: false },
  { name: 'Price', slug: 'price', type: 'money', currency: 'USD', is_required: false },
  { name: 'Paid', slug: 'paid', type: 'bool', is_required: false },
  { name: 'Day', slug: 'day', type: 'date', is_required: false },
  { name: 'At', slug: 'at', type: 'datetime', is_required: false },
  { name: 'Note', slug: 'note', type: 'string', is_required: false },
  { name: 'Tag', slug: 'tag', type: 'string', is_required: false },
  // the list's fourth string: the text slots are taken, so it lives in `data`
  { name: 'Extra', slug: 'extra', type: 'string', is_required: false },
];
const VALUES = {
  city: 'Oslo',
  qty: 2.5,
  price: '10.30',
  paid: true,
  day: '2024-02-29',
  at: '2024-03-01T02:00:00+02:00',
  note: 'n',
  tag: 't',
  extra: 'kept in data',
};

let listId: string;
let fields: StoredField[];
beforeAll(async () => {
  listId = (await createListViaApi(t.app, t.owner, FIELDS)).id;
  const [list] = await queryRows<{ fields: StoredField[] }>(
    t.db,
    sql`select fields from list_schemas where id = ${listId}`,
  );
  fields = list!.fields;
});

/** A record as the code before thin documents wrote it: every value in `data` and its slot. */
async function legacyRecord(stored: StoredField[]): Promise<string> {
  const changes = toStoredChanges(
    stored,
    validateData(stored, VALUES, 'add'),
    createFieldCipher(Buffer.alloc(32, 1).toString('base64')),
  );
  const id = uuidv7();
  const slots = Object.entries(changes.slots) as [SlotColumn, string][];
  const key = await listKeyInsert(t.db, listId);
  await t.db.execute(
    sql`insert into list_items (id, schema_id, owner_id, data${key.column}${sql.join(
      slots.map(([slot]) => sql`, ${sql.identifier(slot)}`),
    )})
        values (${id}, ${listId}, ${t.owner.accountId}, ${JSON.stringify(changes.data)}::jsonb${key.value}${sql.join(
          slots.map(([slot, text]) => sql`, ${text}::${sql.raw(slotSqlType(slot))}`),
        )})`,
  );
  await t.db.execute(sql`update list_schemas set item_count = item_count + 1 where id = ${listId}`);
  return id;
}

/**
 * The record by its id (the look-up every single-record write starts with): an update that
 * sends only an empty value changes nothing and answers the record as stored.
 */
const byId = (id: string) => api('updateListItem', { item_id: id, data: { extra: '' } });

/** A record's fields as an answer shows them, without its id and timestamps. */
const valuesOf = (record: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(record).filter(([k]) => !['id', 'created_at', 'updated_at'].includes(k)),
  );

describe('thin documents', () => {
  it('stores slotted values in their slots only and answers them everywhere', async () => {
    const added = await api('addListItem', { schema_id: listId, data: VALUES });
    expect(added.status).toBe(201);
    const id = String(added.body.data.id);
    const raw = (await rawRecord(t.db, id))!;
    expect(raw.data).toEqual({ extra: 'kept in data' });
    expect(raw).toMatchObject({ t1: 'Oslo', n1: '2.5', n2: '10.3', n3: '1', t2: 'n', t3: 't' });

    const answered = valuesOf(added.body.data);
    expect(answered).toEqual({
      city: 'Oslo',
      qty: 2.5,
      price: 10.3,
      paid: true,
      day: '2024-02-29T00:00:00.000Z',
      at: '2024-03-01T00:00:00.000Z',
      note: 'n',
      tag: 't',
      extra: 'kept in data',
    });
    const got = await byId(id);
    expect(valuesOf(got.body.data)).toEqual(answered);
    const page = await api('getListItems', { schema_id: listId, filters: { city: 'Oslo' } });
    expect(page.body.data.map(valuesOf)).toContainEqual(answered);
    const feed = await api('getChanges', { schema_id: listId, limit: 100 });
    const created = feed.body.data.find(
      (c: { type: string; item_id?: string }) => c.type === 'list_item.created' && c.item_id === id,
    );
    expect(valuesOf(created.data)).toEqual(answered);
  });

  it('reads a record written before exactly as one written now, and thins it on update', async () => {
    const legacy = await legacyRecord(fields);
    expect(Object.keys((await rawRecord(t.db, legacy))!.data as object)).toHaveLength(9);
    const now = await api('addListItem', { schema_id: listId, data: VALUES });
    const expected = valuesOf(now.body.data);
    expect(valuesOf((await byId(legacy)).body.data)).toEqual(expected);
    const exported = await api('getListItems', { schema_id: listId, filters: { qty: '=,2.5' } });
    expect(exported.body.data.map(valuesOf)).toEqual([expected, expected, expected]);

    const updated = await api('updateListItem', { item_id: legacy, data: { city: 'Bergen' } });
    expect(updated.status).toBe(200);
    expect(valuesOf(updated.body.data)).toEqual({ ...expected, city: 'Bergen' });
    const raw = (await rawRecord(t.db, legacy))!;
    // the updated field's copy left `data`; the others stay until they are written
    expect(raw.data).not.toHaveProperty('city');
    expect(raw.data).toHaveProperty('qty', 2.5);
    expect(raw.t1).toBe('Bergen');
    const feed = await api('getChanges', { schema_id: listId, limit: 100 });
    const change = feed.body.data.find(
      (c: { type: string; item_id?: string }) =>
        c.type === 'list_item.updated' && c.item_id === legacy,
    );
    expect(valuesOf(change.data)).toEqual({ ...expected, city: 'Bergen' });
  });

  it('forgets a deleted slotted field, in records written now and before', async () => {
    const legacy = await legacyRecord(fields);
    const now = String(
      (await api('addListItem', { schema_id: listId, data: VALUES })).body.data.id,
    );
    const res = await api('deleteListSchemaField', { schema_id: listId, slug: 'note' });
    expect(res.status).toBeLessThan(300);
    for (const id of [legacy, now]) {
      const record = (await byId(id)).body.data;
      expect(record).not.toHaveProperty('note');
      expect(record).toMatchObject({ city: 'Oslo', tag: 't', extra: 'kept in data' });
    }
  });
});
