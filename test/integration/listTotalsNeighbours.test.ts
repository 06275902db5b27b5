import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/call.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { listItemStatements } from '../helpers/sentStatements.js';
import { addFieldViaApi, addItemViaApi, createListViaApi } from '../helpers/viaApi.js';

/**
 * A range bound never sent before takes its total from the nearest remembered bound of the
 * same filter (src/lists/items/rangeNeighbours.ts): that total advanced over the writes since,
 * plus the matches between the two bounds. Every total is compared with a count of the
 * table; the statements sent to list_items tell how each was made.
 */
const sent = listItemStatements();

let now = Date.parse('2026-06-01T00:00:00Z');
let t: TestApp;
let second: TestApp;
let owner: Tenant;

beforeAll(async () => {
  const env = { RATE_LIMIT_PER_MINUTE: '100000' };
  // lists of 40 records: every neighbour is taken, however few it matched
  t = await startTestApp({ env, clock: () => new Date(now), neighbourMinTotal: 0 });
  second = await startTestApp({ database: t.database, env, neighbourMinTotal: 0 });
  owner = await makeTenant(t.db);
});
afterAll(async () => {
  await second.close();
  await t.close();
});

type How = 'counted' | 'neighbour' | 'advanced' | 'remembered';

async function readTotal(
  app: TestApp,
  schemaId: string,
  filters: Record<string, string>,
): Promise<{ total: number; how: How }> {
  sent.length = 0;
  const res = await call(
    app.app,
    'getListItems',
    { schema_id: schemaId, filters, order_by: 'price,desc', limit: 3 },
    { key: owner.apiKey },
  );
  expect(res.status).toBe(200);
  const totals = sent.filter((s) => /count\(\*\)/i.test(s));
  const how: How = totals.some((s) => !/pg_visible_in_snapshot/.test(s))
    ? 'counted'
    : totals.some((s) => /\)\s*-\s*\(select count\(\*\)/i.test(s))
      ? 'neighbour'
      : totals.length > 0
        ? 'advanced'
        : 'remembered';
  return { total: res.body.meta.total as number, how };
}

/** The same filter counted in the table, as SQL. */
async function countInTable(schemaId: string, condition: string): Promise<number> {
  const { rows } = await t.database.handle.pool!.query<{ n: number }>(
    `select count(*)::int as n from list_items where schema_id = $1 and ${condition}`,
    [schemaId],
  );
  return rows[0]!.n;
}

/** The i-th record: price i, Oslo when odd, a day and an hour of its own. */
function record(i: number, price = i) {
  return {
    city: i % 2 ? 'Oslo' : 'Bergen',
    price,
    day: `2026-01-${String(1 + (i % 28)).padStart(2, '0')}`,
    at: new Date(Date.UTC(2026, 0, 1, i)).toISOString(),
  };
}

async function makeList() {
  const list = await createListViaApi(t.app, owner, [
    { name: 'City', slug: 'city', type: 'string' },
    { name: 'Price', slug: 'price', type: 'number' },
    { name: 'Day', slug: 'day', type: 'date' },
    { name: 'At', slug: 'at', type: 'datetime' },
  ]);
  const items = Array.from({ length: 40 }, (_, i) => record(i));
  const res = await call(
    t.app,
    'addListItems',
    { schema_id: list.id, items },
    {
      key: owner.apiKey,
    },
  );
  expect(res.status).toBe(201);
  return list.id;
}

describe('a range bound never sent before', () => {
  it('is its nearest inner neighbour’s total plus the band between them, for every range operator', async () => {
    const list = await makeList();
    expect(await readTotal(t, list, { price: '<,10' })).toEqual({ total: 10, how: 'counted' });
    expect(await readTotal(t, list, { price: '<,25' })).toEqual({ total: 25, how: 'neighbour' });
    // below every remembered bound: no inner neighbour, counted
    expect(await readTotal(t, list, { price: '<,4' })).toEqual({ total: 4, how: 'counted' });
    // between two: the one below it
    expect(await readTotal(t, list, { price: '<,7' })).toEqual({ total: 7, how: 'neighbour' });
    expect(await readTotal(t, list, { price: '<,7.5' })).toEqual({ total: 8, how: 'neighbour' });
    // `<=` is its own family: counted first, then from its neighbours
    expect(await readTotal(t, list, { price: '<=,30' })).toEqual({ total: 31, how: 'counted' });
    expect(await readTotal(t, list, { price: '<=,35' })).toEqual({ total: 36, how: 'neighbour' });
    // lower bounds take the neighbour above
    expect(await readTotal(t, list, { price: '>,30' })).toEqual({ total: 9, how: 'counted' });
    expect(await readTotal(t, list, { price: '>,20' })).toEqual({ total: 19, how: 'neighbour' });
    expect(await readTotal(t, list, { price: '>=,30' })).toEqual({ total: 10, how: 'counted' });
    expect(await readTotal(t, list, { price: '>=,12.5' })).toEqual({ total: 27, how: 'neighbour' });
    expect(await readTotal(t, list, { price: '>=,12.5' })).toEqual({
      total: 27,
      how: 'remembered',
    });
  });

  it('works on dates and datetimes, and keeps the other conditions of the filter', async () => {
    const list = await makeList();
    const days = (d: string) => countInTable(list, `d1 < '${d}'::timestamptz`);
    expect(await readTotal(t, list, { day: '<,2026-01-05' })).toEqual({
      total: await days('2026-01-05'),
      how: 'counted',
    });
    expect(await readTotal(t, list, { day: '<,2026-01-20' })).toEqual({
      total: await days('2026-01-20'),
      how: 'neighbour',
    });
    const at = '2026-01-01T20:00:00.000Z';
    expect(await readTotal(t, list, { at: `>=,2026-01-01T10:00:00Z` })).toEqual({
      total: 30,
      how: 'counted',
    });
    expect(await readTotal(t, list, { at: `>=,${at}` })).toEqual({ total: 20, how: 'counted' });
    expect(await readTotal(t, list, { at: '>=,2026-01-01T15:30:00Z' })).toEqual({
      total: 24,
      how: 'neighbour',
    });
    // with an equality beside the range: a neighbour must share the equality
    expect(await readTotal(t, list, { city: 'Oslo', price: '<,10' })).toEqual({
      total: 5,
      how: 'counted',
    });
    expect(await readTotal(t, list, { city: 'Bergen', price: '<,20' })).toEqual({
      total: 10,
      how: 'counted',
    });
    expect(await readTotal(t, list, { city: 'Oslo', price: '<,20' })).toEqual({
      total: 10,
      how: 'neighbour',
    });
    // two ranges: either may be the one whose bound moved
    expect(await readTotal(t, list, { price: '<,30', day: '>=,2026-01-10' })).toMatchObject({
      how: 'counted',
    });
    const both = await readTotal(t, list, { price: '<,35', day: '>=,2026-01-10' });
    expect(both).toEqual({
      total: await countInTable(list, `n1 < 35 and d1 >= '2026-01-10'::timestamptz`),
      how: 'neighbour',
    });
  });

  it('brings the neighbour forward over writes on another instance, in one snapshot', async () => {
    const list = await makeList();
    expect(await readTotal(t, list, { price: '<,10' })).toEqual({ total: 10, how: 'counted' });
    // inside the old bound, inside the band, beyond both; an update across, a delete
    await addItemViaApi(second.app, owner, list, record(41, 3));
    await addItemViaApi(second.app, owner, list, record(42, 15));
    await addItemViaApi(second.app, owner, list, record(43, 90));
    const page = await call(
      second.app,
      'getListItems',
      { schema_id: list, filters: { price: '<,2' }, order_by: 'price,asc', limit: 2 },
      { key: owner.apiKey },
    );
    const [zero, one] = (page.body.data as { id: string }[]).map((r) => r.id);
    const moved = await call(
      second.app,
      'updateListItem',
      { schema_id: list, item_id: zero, data: { price: 12 } },
      { key: owner.apiKey },
    );
    expect(moved.status).toBe(200);
    const removed = await call(
      second.app,
      'deleteListItem',
      { schema_id: list, item_id: one },
      { key: owner.apiKey },
    );
    expect(removed.status).toBe(204);
    expect(await readTotal(t, list, { price: '<,20' })).toEqual({
      total: await countInTable(list, 'n1 < 20'),
      how: 'neighbour',
    });
    // the neighbour was remembered as advanced: another bound starts from the newer total
    expect(await readTotal(t, list, { price: '<,11' })).toEqual({
      total: await countInTable(list, 'n1 < 11'),
      how: 'neighbour',
    });
  });

  it('is used after the list is read afresh (no recent list), and not after a field change', async () => {
    const list = await makeList();
    expect((await readTotal(t, list, { price: '<,10' })).how).toBe('counted');
    now += 120_000; // past the recent lists' minute: the list row is read first
    expect(await readTotal(t, list, { price: '<,16' })).toEqual({ total: 16, how: 'neighbour' });
    await addFieldViaApi(t.app, owner, list, {
      name: 'Note',
      slug: 'note',
      type: 'string',
      is_required: false,
    });
    expect(await readTotal(t, list, { price: '<,18' })).toEqual({ total: 18, how: 'counted' });
  });

  it('is not taken where it matched fewer than the least worth its statement', async () => {
    const small = await startTestApp({ database: t.database, neighbourMinTotal: 20 });
    try {
      const list = await makeList();
      expect(await readTotal(small, list, { price: '<,10' })).toEqual({
        total: 10,
        how: 'counted',
      });
      expect(await readTotal(small, list, { price: '<,25' })).toEqual({
        total: 25,
        how: 'counted',
      });
      expect(await readTotal(small, list, { price: '<,30' })).toEqual({
        total: 30,
        how: 'neighbour',
      });
    } finally {
      await small.close();
    }
  });

  it('is never taken from another list', async () => {
    const one = await makeList();
    const other = await makeList();
    expect((await readTotal(t, one, { price: '<,10' })).how).toBe('counted');
    expect(await readTotal(t, other, { price: '<,20' })).toEqual({ total: 20, how: 'counted' });
  });
});
