import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/infra/db/client.js';
import { call } from '../helpers/call.js';
import { seedContact } from '../helpers/contacts.js';
import { makeList, type TestList } from '../helpers/lists.js';
import { MANY_CALLS, testAppForFile } from '../helpers/testAppForFile.js';
import { addItemViaApi } from '../helpers/viaApi.js';

const t = testAppForFile({ env: MANY_CALLS, tenants: ['owner', 'stranger'] });

const FIELDS = [
  { slug: 'title', type: 'string', is_required: true },
  { slug: 'qty', type: 'number' },
];
const update = (params: Record<string, unknown>, key = t.owner.apiKey) =>
  call(t.app, 'updateListItems', params, { key });
const titles = async (list: TestList) =>
  (
    await call(
      t.app,
      'getListItems',
      { schema_id: list.id, order_by: 'created_at,asc' },
      { key: t.owner.apiKey },
    )
  ).body.data.map((r: { title: string; qty: number | null }) => [r.title, r.qty]);

/** The titles and quantities of listOfThree's records, as added. */
const UNTOUCHED = [
  ['a', null],
  ['b', null],
  ['c', null],
];

async function listOfThree() {
  const list = await makeList(t.db, t.owner, FIELDS);
  const ids: string[] = [];
  for (const title of ['a', 'b', 'c'])
    ids.push((await addItemViaApi(t.app, t.owner, list.id, { title })).id);
  return { list, ids };
}

describe('updateListItems', () => {
  it('changes every item and answers the records after the change, in order', async () => {
    const { list, ids } = await listOfThree();
    const res = await update({
      schema_id: list.id,
      items: [
        { item_id: ids[2], data: { qty: 3 } },
        { item_id: ids[0], data: { title: 'A', qty: 1 } },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { id: string }) => r.id)).toEqual([ids[2], ids[0]]);
    expect(await titles(list)).toEqual([
      ['A', 1],
      ['b', null],
      ['c', 3],
    ]);
  });

  it('changes nothing when one item fails, naming it under items.<index>', async () => {
    const { list, ids } = await listOfThree();
    const res = await update({
      schema_id: list.id,
      items: [
        { item_id: ids[0], data: { title: 'changed' } },
        { item_id: ids[1], data: { qty: 'x' } },
      ],
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['items.1.qty']);
    expect(await titles(list)).toEqual(UNTOUCHED);
  });

  it('lists every failing item’s error when all-or-nothing, and changes nothing', async () => {
    const { list, ids } = await listOfThree();
    const other = await listOfThree();
    const res = await update({
      schema_id: list.id,
      items: [
        { item_id: ids[0], data: { qty: 'x' } },
        { item_id: ids[1], data: { title: 'fine' } },
        { item_id: other.ids[0], data: { title: 'no' } },
        { item_id: ids[2], data: { title: '', qty: 'y' } },
        { item_id: '\u0000', data: { title: 'z' } },
      ],
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual([
      'items.0.qty',
      'items.2.item_id',
      'items.3.qty',
      'items.3.title',
      'items.4.item_id',
    ]);
    expect(await titles(list)).toEqual(UNTOUCHED);
  });

  it('records one change event per changed record, none for an item that changes nothing', async () => {
    const { list, ids } = await listOfThree();
    const res = await update({
      schema_id: list.id,
      items: [
        { item_id: ids[0], data: { qty: 1 } },
        { item_id: ids[1], data: {} },
        { item_id: ids[2], data: { title: 'C' } },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { title: string }) => r.title)).toEqual(['a', 'b', 'C']);
    const events = await queryRows<{ item_id: string }>(
      t.db,
      sql`select item_id from changes where schema_id = ${list.id} and type = 'list_item.updated'
          order by seq`,
    );
    expect(events.map((e) => e.item_id).sort()).toEqual([ids[0], ids[2]].sort());
    const filtered = await call(
      t.app,
      'getListItems',
      { schema_id: list.id, filters: { title: 'C' } },
      { key: t.owner.apiKey },
    );
    expect(filtered.body.data.map((r: { id: string }) => r.id)).toEqual([ids[2]]);
  });

  it('applies a record named twice in turn, each item answering the record after its change', async () => {
    const { list, ids } = await listOfThree();
    const res = await update({
      schema_id: list.id,
      items: [
        { item_id: ids[0], data: { title: 'x' } },
        { item_id: ids[0], data: { qty: 2 } },
      ],
    });
    expect(res.status).toBe(200);
    expect(
      res.body.data.map((r: { title: string; qty: number | null }) => [r.title, r.qty]),
    ).toEqual([
      ['x', null],
      ['x', 2],
    ]);
    expect((await titles(list))[0]).toEqual(['x', 2]);
  });

  it('treats a record of another list as not found, and atomic=false keeps the rest', async () => {
    const { list, ids } = await listOfThree();
    const other = await listOfThree();
    const res = await update({
      schema_id: list.id,
      atomic: false,
      items: [
        { item_id: other.ids[0], data: { title: 'no' } },
        { item_id: ids[1], data: { title: 'B' } },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((o: { status: number }) => o.status)).toEqual([422, 200]);
    expect(Object.keys(res.body.data[0].errors)).toEqual(['items.0.item_id']);
    expect(await titles(list)).toEqual([
      ['a', null],
      ['B', null],
      ['c', null],
    ]);
    expect(await titles(other.list)).toEqual(UNTOUCHED);
  });

  it('answers 403 for another account’s list and 422 for a malformed batch', async () => {
    const { list, ids } = await listOfThree();
    const denied = await update(
      { schema_id: list.id, items: [{ item_id: ids[0], data: { title: 'x' } }] },
      t.stranger.apiKey,
    );
    expect(denied.status).toBe(403);
    const empty = await update({ schema_id: list.id, items: [] });
    expect([empty.status, Object.keys(empty.body.errors)]).toEqual([422, ['items']]);
    const noId = await update({ schema_id: list.id, items: [{ data: { title: 'x' } }] });
    expect([noId.status, Object.keys(noId.body.errors)]).toEqual([422, ['items.0.item_id']]);
  });
});

describe('updateListItems: contact values of the whole batch', () => {
  it('names a missing contact under items.<index> and changes nothing; another account’s is a 403', async () => {
    const list = await makeList(t.db, t.owner, [...FIELDS, { slug: 'who', type: 'contact' }]);
    const first = (await addItemViaApi(t.app, t.owner, list.id, { title: 'a' })).id;
    const second = (await addItemViaApi(t.app, t.owner, list.id, { title: 'b' })).id;
    const mine = await seedContact(t.db, t.owner.botId);
    const theirs = await seedContact(t.db, t.stranger.botId);
    const missing = await update({
      schema_id: list.id,
      items: [
        { item_id: first, data: { who: mine } },
        { item_id: second, data: { who: 999_999_999 } },
      ],
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({
      'items.1.who': ['The selected items.1.who is invalid.'],
    });
    const foreign = await update({
      schema_id: list.id,
      items: [{ item_id: first, data: { who: theirs } }],
    });
    expect(foreign.status).toBe(403);
    const page = await call(t.app, 'getListItems', { schema_id: list.id }, { key: t.owner.apiKey });
    expect(page.body.data.map((r: { contact_id?: number }) => r.contact_id ?? null)).toEqual([
      null,
      null,
    ]);
    // a batch naming one record twice goes item by item, with the same per-batch check
    const twice = await update({
      schema_id: list.id,
      items: [
        { item_id: first, data: { who: mine } },
        { item_id: first, data: { who: 999_999_999 } },
      ],
    });
    expect([twice.status, twice.body.errors]).toEqual([
      422,
      { 'items.1.who': ['The selected items.1.who is invalid.'] },
    ]);
    const twiceForeign = await update({
      schema_id: list.id,
      items: [
        { item_id: first, data: { who: mine } },
        { item_id: first, data: { who: theirs } },
      ],
    });
    expect(twiceForeign.status).toBe(403);
    const twiceEach = await update({
      schema_id: list.id,
      atomic: false,
      items: [
        { item_id: first, data: { who: 999_999_999 } },
        { item_id: first, data: { who: theirs } },
        { item_id: first, data: { title: 'c' } },
      ],
    });
    expect(twiceEach.body.data.map((o: { status: number }) => o.status)).toEqual([422, 403, 200]);
    expect(twiceEach.body.data[0].errors).toEqual({
      'items.0.who': ['The selected items.0.who is invalid.'],
    });
    expect(twiceEach.body.data[1].message).toBe('The contact or bot belongs to another account.');
    const fine = await update({
      schema_id: list.id,
      items: [{ item_id: first, data: { who: mine } }],
    });
    expect(fine.body.data[0].contact_id).toBe(mine);
  });
});
