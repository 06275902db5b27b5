import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/call.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { listItemStatements } from '../helpers/sentStatements.js';
import { addFieldViaApi, addItemViaApi, cityPriceListViaApi } from '../helpers/viaApi.js';

/**
 * A filtered total remembered for one version of a list is brought forward over the records
 * written since (src/lists/items/listTotals.ts) instead of counted again; a field change
 * counts again. Every total is compared with a count of the table. The statements sent to
 * list_items are recorded to tell an advanced total from a counted one.
 */
const sent = listItemStatements();

let t: TestApp;
let second: TestApp;
let owner: Tenant;

beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  // a second instance on the same database: its writes reach the first only through Postgres
  second = await startTestApp({ database: t.database, env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  owner = await makeTenant(t.db);
});
afterAll(async () => {
  await second.close();
  await t.close();
});

const FILTER = { city: 'Oslo', price: '>,10' };

async function readTotal(app: TestApp, schemaId: string) {
  sent.length = 0;
  const res = await call(
    app.app,
    'getListItems',
    { schema_id: schemaId, filters: FILTER, order_by: 'price,desc', limit: 5 },
    { key: owner.apiKey },
  );
  expect(res.status).toBe(200);
  const totals = sent.filter((s) => /count\(\*\)/i.test(s));
  const counted = totals.some((s) => !/pg_visible_in_snapshot/.test(s));
  const how = counted ? 'counted' : totals.length > 0 ? 'advanced' : 'remembered';
  return { total: res.body.meta.total as number, how };
}

async function countInTable(schemaId: string): Promise<number> {
  const { rows } = await t.database.handle.pool!.query<{ n: number }>(
    `select count(*)::int as n from list_items
     where schema_id = $1 and t1 = 'Oslo' and n1 > 10`,
    [schemaId],
  );
  return rows[0]!.n;
}

const makeList = () => cityPriceListViaApi(t.app, owner);

describe('filtered totals between writes', () => {
  it('brings a remembered total forward over records created since, on any instance', async () => {
    const list = await makeList();
    expect(await readTotal(t, list)).toEqual({ total: 5, how: 'counted' });
    expect(await readTotal(t, list)).toEqual({ total: 5, how: 'remembered' });

    await addItemViaApi(t.app, owner, list, { city: 'Oslo', price: 50 });
    await addItemViaApi(second.app, owner, list, { city: 'Oslo', price: 1 });
    await addItemViaApi(second.app, owner, list, { city: 'Bergen', price: 70 });
    const batch = await call(
      second.app,
      'addListItems',
      {
        schema_id: list,
        items: [
          { city: 'Oslo', price: 11 },
          { city: 'Oslo', price: 12 },
        ],
      },
      { key: owner.apiKey },
    );
    expect(batch.status).toBe(201);

    expect(await readTotal(t, list)).toEqual({ total: 8, how: 'advanced' });
    expect(await countInTable(list)).toBe(8);
    expect(await readTotal(t, list)).toEqual({ total: 8, how: 'remembered' });
  });

  it('advances over updates and deletes too, by the row each change kept', async () => {
    const list = await makeList();
    expect((await readTotal(t, list)).total).toBe(5);
    const update = async (itemId: string, data: Record<string, unknown>) => {
      const res = await call(
        second.app,
        'updateListItem',
        { schema_id: list, item_id: itemId, data },
        { key: owner.apiKey },
      );
      expect(res.status).toBe(200);
    };
    const remove = async (itemId: string) => {
      const res = await call(
        second.app,
        'deleteListItem',
        { schema_id: list, item_id: itemId },
        { key: owner.apiKey },
      );
      expect(res.status).toBe(204);
    };
    const oslo = await addItemViaApi(t.app, owner, list, { city: 'Oslo', price: 40 });
    const bergen = await addItemViaApi(t.app, owner, list, { city: 'Bergen', price: 70 });
    expect(await readTotal(t, list)).toEqual({ total: 6, how: 'advanced' });

    // out of the filter, into it, and a change that keeps it matching
    await update(oslo.id, { city: 'Bergen' });
    expect(await readTotal(t, list)).toEqual({ total: 5, how: 'advanced' });
    await update(bergen.id, { city: 'Oslo' });
    await update(bergen.id, { price: 71 });
    expect(await readTotal(t, list)).toEqual({ total: 6, how: 'advanced' });
    // in and out again between two reads: the first unseen change says how it was
    await update(oslo.id, { city: 'Oslo' });
    await update(oslo.id, { price: 5 });
    expect(await readTotal(t, list)).toEqual({ total: 6, how: 'advanced' });
    expect(await countInTable(list)).toBe(6);

    // deletes: a match, a record that did not match, one created and deleted unseen
    await remove(bergen.id);
    await remove(oslo.id);
    const brief = await addItemViaApi(t.app, owner, list, { city: 'Oslo', price: 99 });
    await remove(brief.id);
    expect(await readTotal(t, list)).toEqual({ total: 5, how: 'advanced' });
    expect(await countInTable(list)).toBe(5);
  });

  it('advances over batch updates and deletes; counts again after a field change', async () => {
    const list = await makeList();
    expect((await readTotal(t, list)).total).toBe(5);
    const page = await call(
      t.app,
      'getListItems',
      { schema_id: list, filters: { city: 'Oslo' }, order_by: 'price,asc', limit: 4 },
      { key: owner.apiKey },
    );
    const [a, b, c, d] = (page.body.data as { id: string }[]).map((r) => r.id);
    // Oslo at prices 1, 3, 5, 7: two leave the filter (one by city, one by price), one enters
    const batch = await call(
      second.app,
      'updateListItems',
      {
        schema_id: list,
        items: [
          { item_id: a, data: { price: 500 } },
          { item_id: b, data: { city: 'Bergen' } },
          { item_id: c, data: { price: 2 } },
        ],
      },
      { key: owner.apiKey },
    );
    expect(batch.status).toBe(200);
    expect(await readTotal(t, list)).toEqual({ total: await countInTable(list), how: 'advanced' });
    const removed = await call(
      second.app,
      'deleteListItems',
      { schema_id: list, item_ids: [a, d] },
      { key: owner.apiKey },
    );
    expect(removed.status).toBe(204);
    expect(await readTotal(t, list)).toEqual({ total: await countInTable(list), how: 'advanced' });

    await addFieldViaApi(t.app, owner, list, {
      name: 'Note',
      slug: 'note',
      type: 'string',
      is_required: false,
    });
    await addItemViaApi(t.app, owner, list, { city: 'Oslo', price: 30 });
    expect(await readTotal(t, list)).toEqual({ total: await countInTable(list), how: 'counted' });
  });
});
