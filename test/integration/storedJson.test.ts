import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/infra/db/client.js';
import type { StoredField } from '../../src/infra/db/schema/listSchemas.js';
import { createFieldCipher } from '../../src/lists/encryption/cipher.js';
import { toItemRow, type StoredItemRow } from '../../src/lists/items/foundItem.js';
import { SLOT_ARRAY_TEXT } from '../../src/lists/items/itemSlots.js';
import { itemWriter } from '../../src/lists/items/listItemPresenter.js';
import { recordJsonText } from '../../src/lists/items/recordJson.js';
import { assignSlots } from '../../src/lists/slots.js';
import { call } from '../helpers/call.js';
import { storedField } from '../helpers/storedField.js';
import { MANY_CALLS, testAppForFile } from '../helpers/testAppForFile.js';
import { createListViaApi } from '../helpers/viaApi.js';

/**
 * Records written once (src/lists/items/storedJson.ts): an insert stores the record's JSON
 * with the list's layout, an update stores it again from the record's new values, a read of
 * that layout answers it as stored, and neither a changed record nor changed fields are ever
 * answered from a stale text.
 */
const t = testAppForFile({ env: MANY_CALLS, tenants: ['owner'] });
/** no list here has a sealed field: the writer never uses its key */
const cipher = createFieldCipher(randomBytes(32).toString('base64'));
const api = async (method: string, params: Record<string, unknown>, status = 200) => {
  const res = await call(t.app, method, params, { key: t.owner.apiKey });
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res;
};

const FIELDS = [
  { name: 'City', slug: 'city', type: 'string' },
  { name: 'Amount', slug: 'amount', type: 'number' },
  { name: 'Day', slug: 'day', type: 'date' },
  { name: 'Flag', slug: 'flag', type: 'bool' },
].map((field) => ({ ...field, is_required: false }));
const RECORD = { city: 'Oslo "north"', amount: 12.5, day: '2024-02-29', flag: true };

interface StoredRow {
  id: string;
  record_json: string | null;
  record_layout: number | null;
}

async function storedRows(listId: string): Promise<StoredRow[]> {
  return queryRows<StoredRow>(
    t.db,
    sql`select id, record_json, record_layout from list_items where schema_id = ${listId}
        order by created_at, id`,
  );
}

const listRow = async (listId: string) =>
  (
    await queryRows<{ fields: StoredField[]; layout: number }>(
      t.db,
      sql`select fields, layout from list_schemas where id = ${listId}`,
    )
  )[0]!;
const layoutOf = async (listId: string) => (await listRow(listId)).layout;

/** The page's raw answer: the stored text must appear in it byte for byte. */
const readPage = async (listId: string) =>
  (await api('getListItems', { schema_id: listId, limit: 50 })).raw.body;

describe('records written once (storedJson.ts)', () => {
  it('stores what a read would write, for addListItem and addListItems alike', async () => {
    const list = await createListViaApi(t.app, t.owner, FIELDS);
    await api('addListItem', { schema_id: list.id, data: RECORD }, 201);
    await api(
      'addListItems',
      {
        schema_id: list.id,
        items: [{ city: 'Bergen', amount: -3 }, { day: '2001-01-01' }, { amount: 1e-7 }],
      },
      201,
    );
    const { fields, layout } = await listRow(list.id);
    // the record as stored, with what Postgres and Node write of its row on a read
    const rows = await queryRows<StoredItemRow & StoredRow & { computed: string | null }>(
      t.db,
      sql`select id, data, created_at, updated_at, ${sql.raw(SLOT_ARRAY_TEXT)} as slot_values,
            record_json, record_layout, ${sql.raw(recordJsonText(fields)!)} as computed
          from list_items where schema_id = ${list.id} order by created_at, id`,
    );
    expect(rows).toHaveLength(4);
    const write = itemWriter(fields, cipher);
    for (const row of rows) {
      expect(row.record_layout).toBe(layout);
      expect(row.record_json).toBe(write(toItemRow(row)).text);
      // Postgres writes the same where it writes at all (not 1e-7: JavaScript's exponent)
      if (row.computed !== null) expect(row.record_json).toBe(row.computed);
    }
    expect(rows.filter((row) => row.computed === null)).toHaveLength(1);
    expect(JSON.parse(rows[0]!.record_json!)).toMatchObject({
      id: rows[0]!.id,
      ...RECORD,
      day: '2024-02-29T00:00:00.000Z',
    });
    // and a read answers it
    const page = await readPage(list.id);
    for (const row of rows) expect(page).toContain(row.record_json);
  });

  it('stores nothing for a list with a sealed field (its answer holds the clear text)', async () => {
    const list = await createListViaApi(t.app, t.owner, [
      ...FIELDS,
      { name: 'Secret', slug: 'secret', type: 'string', is_encryptable: true, is_required: false },
    ]);
    await api('addListItem', { schema_id: list.id, data: { ...RECORD, secret: 's3' } }, 201);
    await api('addListItems', { schema_id: list.id, items: [{ secret: 's4' }] }, 201);
    const rows = await storedRows(list.id);
    expect(rows.map((r) => [r.record_json, r.record_layout])).toEqual([
      [null, null],
      [null, null],
    ]);
    const page = JSON.parse(await readPage(list.id)).data;
    expect(page.map((item: { secret: string }) => item.secret)).toEqual(['s3', 's4']);
  });

  it('stores the JSON of an updated record again, as a read writes its new values', async () => {
    const list = await createListViaApi(t.app, t.owner, FIELDS);
    const { body } = await api('addListItem', { schema_id: list.id, data: RECORD }, 201);
    const [other, third] = (
      await api(
        'addListItems',
        { schema_id: list.id, items: [{ city: 'Bergen' }, { amount: 1, flag: false }] },
        201,
      )
    ).body.data;
    await api('updateListItem', { schema_id: list.id, item_id: body.data.id, data: { amount: 7 } });
    await api('updateListItems', {
      schema_id: list.id,
      items: [
        { item_id: other.id, data: { city: 'Tromsø', day: '2020-05-06' } },
        // a value Postgres does not write (JavaScript's exponent): stored as NULL, written by Node
        { item_id: third.id, data: { amount: 1e-7, city: null } },
      ],
    });
    const { fields, layout } = await listRow(list.id);
    const rows = await queryRows<StoredItemRow & StoredRow>(
      t.db,
      sql`select id, data, created_at, updated_at, ${sql.raw(SLOT_ARRAY_TEXT)} as slot_values,
            record_json, record_layout
          from list_items where schema_id = ${list.id} order by created_at, id`,
    );
    const write = itemWriter(fields, cipher);
    expect(rows.map((row) => row.record_layout)).toEqual([layout, layout, layout]);
    expect(rows.map((row) => row.record_json)).toEqual([
      write(toItemRow(rows[0]!)).text,
      write(toItemRow(rows[1]!)).text,
      null,
    ]);
    const page = JSON.parse(await readPage(list.id)).data;
    expect(page.map((item: Record<string, unknown>) => [item.city, item.amount, item.day])).toEqual(
      [
        [RECORD.city, 7, '2024-02-29T00:00:00.000Z'],
        ['Tromsø', null, '2020-05-06T00:00:00.000Z'],
        [null, 1e-7, null],
      ],
    );
    // the stored text is the answer's, with the update's own updated_at
    expect(JSON.parse(rows[0]!.record_json!)).toEqual(page[0]);
    expect(page[0].updated_at).not.toBe(page[0].created_at);
  });

  it('stores the JSON of both of two updates racing on one record', async () => {
    const list = await createListViaApi(t.app, t.owner, FIELDS);
    const { body } = await api('addListItem', { schema_id: list.id, data: RECORD }, 201);
    const update = (data: Record<string, unknown>) =>
      api('updateListItem', { schema_id: list.id, item_id: body.data.id, data });
    for (let round = 0; round < 5; round++) {
      await Promise.all([
        update({ amount: round }),
        update({ city: `c${round}` }),
        update({ flag: round % 2 === 0 }),
        api('updateListItems', {
          schema_id: list.id,
          items: [{ item_id: body.data.id, data: { day: `200${round}-01-01` } }],
        }),
      ]);
      const [item] = JSON.parse(await readPage(list.id)).data;
      expect(item).toMatchObject({
        amount: round,
        city: `c${round}`,
        flag: round % 2 === 0,
        day: `200${round}-01-01T00:00:00.000Z`,
      });
      const [row] = await storedRows(list.id);
      expect(JSON.parse(row!.record_json!)).toEqual(item);
    }
  });

  it('answers records stored under an earlier layout as the fields are now', async () => {
    const list = await createListViaApi(t.app, t.owner, FIELDS);
    await api('addListItem', { schema_id: list.id, data: RECORD }, 201);
    const [before] = await storedRows(list.id);
    await api(
      'addListSchemaField',
      {
        schema_id: list.id,
        field: { name: 'Note', slug: 'note', type: 'string' },
      },
      204,
    );
    await api('deleteListSchemaField', { schema_id: list.id, slug: 'flag' }, 204);
    const [item] = JSON.parse(await readPage(list.id)).data;
    expect(Object.keys(item)).toEqual([
      'id',
      'city',
      'amount',
      'day',
      'note',
      'created_at',
      'updated_at',
    ]);
    expect(item.note).toBeNull();
    // that page left the record to Node (the stored form reads the new layout's JSON alone);
    // the next page of the list is read with the JSON written by Postgres: the same record
    const again = await api('getListItems', { schema_id: list.id, limit: 49 });
    expect(JSON.stringify(JSON.parse(again.raw.body).data)).toBe(JSON.stringify([item]));
    // a record added now is stored for the new layout, beside the earlier one
    await api('addListItem', { schema_id: list.id, data: { note: 'n' } }, 201);
    const rows = await storedRows(list.id);
    expect(rows[1]!.record_layout).toBe(await layoutOf(list.id));
    expect(rows[1]!.record_layout).not.toBe(before!.record_layout);
    expect(JSON.parse(rows[1]!.record_json!)).toMatchObject({ note: 'n' });
  });

  it('keeps the stored JSON out of the change feed', async () => {
    const list = await createListViaApi(t.app, t.owner, FIELDS);
    const { body } = await api('addListItem', { schema_id: list.id, data: RECORD }, 201);
    await api('updateListItem', { schema_id: list.id, item_id: body.data.id, data: { amount: 1 } });
    const [change] = await queryRows<{ previous: Record<string, unknown> }>(
      t.db,
      sql`select previous from changes where item_id = ${body.data.id}
          and type = 'list_item.updated'`,
    );
    expect(change!.previous).toMatchObject({ id: body.data.id, n1: 12.5 });
    expect(change!.previous).not.toHaveProperty('record_json');
    expect(change!.previous).not.toHaveProperty('record_layout');
  });

  it('writes every type as it did when stored records were introduced', () => {
    // Stored JSON is kept across releases: a release that writes some value differently must
    // come with a migration that sets record_json to NULL (storedJson.ts), and then this pin.
    // Node's writer and this SQL one write the same bytes (recordJson.test.ts), so a change to
    // either shows here.
    const fields = assignSlots(
      ['string', 'number', 'money', 'bool', 'date', 'datetime', 'contact', 'bot'].map((type) =>
        storedField(type, type, { currency: 'BHD' }),
      ),
    ) as StoredField[];
    const text = recordJsonText(fields)!;
    expect(createHash('sha256').update(text).digest('hex').slice(0, 16)).toBe('8ed4c72d9b75b91f');
  });
});
