import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/call.js';
import type { Tenant } from '../helpers/factories.js';
import {
  addOneToEveryCount,
  keptCountsRow,
  startKeptCountApps,
  waitForKeptCounts,
  writeWhileRecounting,
} from '../helpers/keptCounts.js';
import type { TestApp } from '../helpers/testApp.js';
import { addItemsViaApi, createListViaApi } from '../helpers/viaApi.js';

/**
 * Counts per text value (src/lists/items/valueCounts.ts): a first-time equality's total on a
 * text slot is read from the list's counts of its frequent values, brought forward over the
 * writes since they were taken — adds, updates and deletes of one and of many, concurrent
 * ones, a field change — and a value the counts do not keep is counted in the same statement.
 * Each total is compared with the records as the API answered them. Lists of any size use
 * the counts here, whatever their shape's last total (ANY), but where that is the case tested.
 */
const ANY = { minRecords: 0, minMatches: 0, minShare: 0 };

let t: TestApp;
/** a second server on the same database that brings the counts forward after any write */
let eager: TestApp;
/** a third that reads the counts only where the equality's shape last matched 100 records or more */
let gated: TestApp;
let owner: Tenant;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ t, eager, gated, owner, close } = await startKeptCountApps(ANY, {
    minRecords: 0,
    minMatches: 100,
  }));
});
afterAll(() => close());

interface Stored {
  id: string;
  city: string | null;
  tag: string | null;
}

const FIELDS = [
  { name: 'City', slug: 'city', type: 'string', is_required: false },
  { name: 'Tag', slug: 'tag', type: 'string', is_required: false },
];

/**
 * Cities whose byte order differs from a language's (case, accents, digits), so a binary
 * search in another order than the counts' would miss; the last two held by few records.
 */
const CITIES = ['Zürich', 'amsterdam', 'Amsterdam', 'Ålesund', 'berlin', '10x', '9x', 'z', 'É'];

/** Deterministic values: frequent cities, a rare one every 500th record, empty fields. */
function values(i: number): Record<string, unknown> {
  const r = (i * 7919 + 13) % 10007;
  const rare = i % 500 === 7 ? `rare ${i}` : undefined;
  return {
    city: i % 17 === 0 ? null : (rare ?? CITIES[r % CITIES.length]),
    tag: `t${r % 40}`,
  };
}

async function api(method: string, params: Record<string, unknown>, app = t) {
  return call(app.app, method, params, { key: owner.apiKey });
}

async function records(listId: string): Promise<Stored[]> {
  const all: Stored[] = [];
  for (let page = 1; ; page++) {
    const res = await api('getListItems', { schema_id: listId, limit: 1000, page });
    expect(res.status).toBe(200);
    all.push(...(res.body.data as Stored[]));
    if (res.body.data.length < 1000) return all;
  }
}

async function total(listId: string, slug: string, value: string, app = t): Promise<number> {
  const res = await api(
    'getListItems',
    { schema_id: listId, filters: { [slug]: value }, limit: 1 },
    app,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.meta.total as number;
}

const expected = (stored: Stored[], slug: 'city' | 'tag', value: string) =>
  stored.filter((r) => r[slug] === value).length;

const SLOTS = { city: 1, tag: 2 } as const;
const CITY_COUNTS = { table: 'list_value_counts', column: 'counts', slot: SLOTS.city };

/** The list's value counts of a slot as last taken. */
const kept = (listId: string, slot: number) =>
  keptCountsRow<{ snapshot: string; vals: string[]; counts: string[]; counted_at: string }>(
    t.db,
    owner,
    listId,
    {
      table: 'list_value_counts',
      columns: 'vals, counts::text[] as counts, counted_at::text',
      slot,
    },
  );

/** The slot's counts once taken after `snapshot` (none: once taken at all). */
const waitForCounts = (listId: string, slot: number, snapshot?: string) =>
  waitForKeptCounts(() => kept(listId, slot), snapshot);

/** Reads an equality on each counted field, which takes the counts, and waits for them. */
async function countValues(listId: string, before: Record<number, string | undefined> = {}) {
  for (const [slug, slot] of Object.entries(SLOTS)) {
    await total(listId, slug, `never ${Math.random()}`);
    await waitForCounts(listId, slot, before[slot]);
  }
}

/** A new list holding `count` records. */
async function listOf(count: number): Promise<{ id: string }> {
  const list = await createListViaApi(t.app, owner, FIELDS);
  for (let from = 0; from < count; from += 1000) {
    const items = Array.from({ length: Math.min(1000, count - from) }, (_, i) => values(from + i));
    await addItemsViaApi(t.app, owner, list.id, items);
  }
  return list;
}

/** Writes through every record method: added one and many, updated one and many, deleted. */
async function writeAll(listId: string) {
  const more = Array.from({ length: 20 }, (_, i) => values(i + 3000));
  await addItemsViaApi(t.app, owner, listId, more);
  for (let i = 150; i < 160; i++)
    expect((await api('addListItem', { schema_id: listId, data: values(i) })).status).toBe(201);
  const ids = (await api('getListItems', { schema_id: listId, limit: 100 })).body.data.map(
    (r: Stored) => r.id,
  );
  for (let i = 0; i < 10; i++) {
    const data = i % 2 ? values(i + 5000) : { city: 'moved away' };
    const res = await api('updateListItem', { schema_id: listId, item_id: ids[i], data });
    expect(res.status).toBe(200);
  }
  const many = ids.slice(10, 40).map((id: string, i: number) => ({
    item_id: id,
    data: values(i + 7001),
  }));
  expect((await api('updateListItems', { schema_id: listId, items: many })).status).toBe(200);
  for (const id of ids.slice(40, 50))
    expect((await api('deleteListItem', { schema_id: listId, item_id: id })).status).toBe(204);
  const gone = ids.slice(50, 70);
  expect((await api('deleteListItems', { schema_id: listId, item_ids: gone })).status).toBe(204);
}

/** Every city and tag held, and some no record holds, against the records. */
async function expectExactTotals(listId: string, app = t) {
  const stored = await records(listId);
  const cities = [...new Set(stored.map((r) => r.city).filter((c) => c !== null))];
  for (const city of [...cities, 'moved away', 'nowhere', 'ZÜRICH', 'amsterdam '])
    expect(await total(listId, 'city', city, app), city).toBe(expected(stored, 'city', city));
  for (const tag of ['t0', 't7', 't39', 't40'])
    expect(await total(listId, 'tag', tag, app), tag).toBe(expected(stored, 'tag', tag));
}

describe('counts per text value', () => {
  it('are taken for each value holding a thousandth of the list, in byte order', async () => {
    const list = await listOf(2100);
    await countValues(list.id);
    const stored = await records(list.id);
    const city = await kept(list.id, SLOTS.city);
    // 2,100 records: a value is kept from 3 records up; the rare cities hold one each
    const held = CITIES.filter((c) => expected(stored, 'city', c) >= 3);
    expect(held.length).toBe(CITIES.length);
    expect(city!.vals).toEqual(
      [...held].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))),
    );
    expect(city!.counts.map(Number)).toEqual(city!.vals.map((c) => expected(stored, 'city', c)));
    expect((await kept(list.id, SLOTS.tag))!.vals).toHaveLength(40);
  });

  it('give the exact total of an equality after writes of every kind since', async () => {
    const list = await listOf(2100);
    await countValues(list.id);
    await writeAll(list.id);
    await expectExactTotals(list.id);
  });

  it('are what a first-time equality total reads; a value not kept is counted', async () => {
    const list = await listOf(2100);
    await countValues(list.id);
    const stored = await records(list.id);
    await addOneToEveryCount(t.db, owner, list.id, CITY_COUNTS);
    expect(await total(list.id, 'city', 'berlin')).toBe(expected(stored, 'city', 'berlin') + 1);
    expect(await total(list.id, 'city', 'rare 507')).toBe(1);
    expect(await total(list.id, 'city', 'Zurich')).toBe(0);
  });

  it('stay exact under concurrent writers, and are taken again while they write', async () => {
    const list = await listOf(1200);
    await countValues(list.id);
    const before = await kept(list.id, SLOTS.city);
    const ids = (await api('getListItems', { schema_id: list.id, limit: 100 })).body.data.map(
      (r: Stored) => r.id,
    );
    await writeWhileRecounting(t, owner, list.id, ids, values, {
      table: 'list_value_counts',
      run: () => countValues(list.id, { [SLOTS.city]: before!.snapshot }),
    });
    await expectExactTotals(list.id);
  });

  it('are brought forward over the writes since, the kept values only', async () => {
    const list = await listOf(2100);
    await countValues(list.id);
    const before = await kept(list.id, SLOTS.city);
    await writeAll(list.id);
    // a server that brings the counts forward after any write: one read of a kept value (a
    // value not kept is counted in its own snapshot, which tells nothing of the writes since)
    await total(list.id, 'city', 'berlin', eager);
    const after = await waitForCounts(list.id, SLOTS.city, before!.snapshot);
    const stored = await records(list.id);
    // 'moved away' now holds records, but was not a value when counted
    expect(after.vals).toEqual(before!.vals);
    // the list was last counted whole when it was counted
    expect(after.counted_at).toBe(before!.counted_at);
    expect(after.counts.map(Number)).toEqual(after.vals.map((c) => expected(stored, 'city', c)));
    await expectExactTotals(list.id, eager);
  });

  it('are brought forward past more writes than a read advances over, not counted again', async () => {
    const list = await listOf(2100);
    await countValues(list.id);
    const before = await kept(list.id, SLOTS.city);
    const ids = (await records(list.id)).map((r) => r.id);
    // 2,100 updates: past the 2,000 a read brings a total forward over
    for (let from = 0; from < ids.length; from += 1000) {
      const items = ids
        .slice(from, from + 1000)
        .map((id, i) => ({ item_id: id, data: values(from + i + 9000) }));
      expect((await api('updateListItems', { schema_id: list.id, items })).status).toBe(200);
    }
    const stored = await records(list.id);
    // refused by the read, which counts, and brought forward in the background
    expect(await total(list.id, 'city', 'berlin')).toBe(expected(stored, 'city', 'berlin'));
    const after = await waitForCounts(list.id, SLOTS.city, before!.snapshot);
    expect(after.counted_at).toBe(before!.counted_at);
    expect(after.counts.map(Number)).toEqual(after.vals.map((c) => expected(stored, 'city', c)));
    await expectExactTotals(list.id);
  });

  it('are counted again once the last count is an hour old, keeping values grown frequent since', async () => {
    const list = await listOf(2100);
    await countValues(list.id);
    const before = await kept(list.id, SLOTS.city);
    await writeAll(list.id);
    // the last count of the whole list, an hour and more ago; the advance leaves it be
    await t.db.execute(sql`update list_value_counts set counted_at = now() - interval '61 minutes'
      where owner_id = ${owner.accountId} and list_key = hashtextextended(${list.id}::text, 0)`);
    await total(list.id, 'city', 'berlin', eager);
    const after = await waitForCounts(list.id, SLOTS.city, before!.snapshot);
    const stored = await records(list.id);
    expect(after.vals).toContain('moved away');
    expect(after.counts.map(Number)).toEqual(after.vals.map((c) => expected(stored, 'city', c)));
    expect(Date.parse(after.counted_at)).toBeGreaterThan(Date.now() - 10 * 60_000);
    await expectExactTotals(list.id, eager);
  });

  it('are not read across a field change, and are taken again after it', async () => {
    const list = await listOf(1200);
    await countValues(list.id);
    const before = await kept(list.id, SLOTS.city);
    const res = await api('deleteListSchemaField', { schema_id: list.id, slug: 'tag' });
    expect(res.status).toBe(204);
    const stored = (await records(list.id)).map((r) => ({ ...r, tag: null }));
    expect(await total(list.id, 'city', 'berlin')).toBe(expected(stored, 'city', 'berlin'));
    await waitForCounts(list.id, SLOTS.city, before!.snapshot);
    expect(await total(list.id, 'city', 'z')).toBe(expected(stored, 'city', 'z'));
  });

  it('are not read for an equality whose shape last matched few records', async () => {
    const list = await listOf(2100);
    await countValues(list.id);
    const stored = await records(list.id);
    await addOneToEveryCount(t.db, owner, list.id, CITY_COUNTS);
    const fromCounts = (city: string) => expected(stored, 'city', city) + 1;
    // no last total of the shape on this server: the counts answer
    expect(await total(list.id, 'city', 'berlin', gated)).toBe(fromCounts('berlin'));
    // a value held by one record, counted in the counts' statement: the shape's last total
    expect(await total(list.id, 'city', 'rare 7', gated)).toBe(1);
    // so the next value is counted, exactly
    expect(await total(list.id, 'city', 'z', gated)).toBe(expected(stored, 'city', 'z'));
    // and that count, a ninth of the list, sends the next one to the counts again
    expect(await total(list.id, 'city', '9x', gated)).toBe(fromCounts('9x'));
  });
});
