import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/infra/db/client.js';
import { call } from '../helpers/call.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { addItemsViaApi, createListViaApi } from '../helpers/viaApi.js';

/**
 * The counts kept per value band (migration 0019, src/lists/items/valueBands.ts): every write
 * path keeps them equal to the records' values, and a first-time total of one range is read
 * from them, exact at any bound — on a band's edge, inside one, negative, fractional — for
 * numbers, dates and date-times. Each total is compared with the records as the API answered
 * them.
 */
let t: TestApp;
let owner: Tenant;

beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
  owner = await makeTenant(t.db);
});
afterAll(async () => {
  await t.close();
});

interface Stored {
  id: string;
  price: number | null;
  day: string | null;
  at: string | null;
}

const FIELDS = [
  { name: 'Price', slug: 'price', type: 'number', is_required: false },
  { name: 'Day', slug: 'day', type: 'date', is_required: false },
  { name: 'At', slug: 'at', type: 'datetime', is_required: false },
];

/** Deterministic values that hit band edges, negatives, fractions and empty fields. */
function values(i: number): Record<string, unknown> {
  const r = (i * 7919 + 13) % 10007;
  const prices = [r - 5000, (r - 5000) / 100, 120, -130, 0, 1200, -0.046, null];
  const day = new Date(Date.UTC(2024, 0, 1) + (r % 400) * 86_400_000).toISOString().slice(0, 10);
  const at = new Date(Date.UTC(2024, 0, 1) + r * 3_600_000 + (i % 3) * 1_000).toISOString();
  return {
    price: prices[i % prices.length],
    day: i % 11 === 0 ? null : day,
    at: i % 13 === 0 ? null : at,
  };
}

async function api(method: string, params: Record<string, unknown>) {
  return call(t.app, method, params, { key: owner.apiKey });
}

async function records(listId: string): Promise<Stored[]> {
  const res = await api('getListItems', { schema_id: listId, limit: 1000 });
  expect(res.status).toBe(200);
  return res.body.data as Stored[];
}

async function total(listId: string, slug: string, op: string, bound: string): Promise<number> {
  const res = await api('getListItems', {
    schema_id: listId,
    filters: { [slug]: `${op},${bound}` },
    limit: 1,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.meta.total as number;
}

const COMPARE: Record<string, (a: number, b: number) => boolean> = {
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
};

function expected(stored: Stored[], slug: 'price' | 'day' | 'at', op: string, bound: string) {
  const key = (v: number | string) => (slug === 'price' ? Number(v) : Date.parse(String(v)));
  return stored.filter((r) => {
    const v = r[slug];
    return v !== null && COMPARE[op]!(key(v), key(bound));
  }).length;
}

/** The bands as kept, and as the records' values make them now (zero bands left out). */
async function bandsKeptAndCounted(listId: string) {
  const scope = sql`owner_id = ${owner.accountId} and list_key = hashtextextended(${listId}::text, 0)`;
  const kept = await queryRows<{ slot: number; band: string; records: number }>(
    t.db,
    sql`select slot, band::text as band, records::int as records from list_value_bands
        where ${scope} and records <> 0 order by slot, band::numeric`,
  );
  const counted = await queryRows<{ slot: number; band: string; records: number }>(
    t.db,
    sql`select v.slot, v.band::text as band, count(*)::int as records
        from list_items r cross join lateral list_item_bands(r.n1, r.n2, r.n3, r.d1, r.d2) v
        where ${scope}
        group by 1, v.band order by 1, v.band`,
  );
  return { kept, counted };
}

/** A new list holding `count` records added in one batch. */
async function listOf(count: number): Promise<{ id: string }> {
  const list = await createListViaApi(t.app, owner, FIELDS);
  const items = Array.from({ length: count }, (_, i) => values(i));
  await addItemsViaApi(t.app, owner, list.id, items);
  return list;
}

/** A list written through every record method: added one and many, updated, deleted. */
async function writtenList(): Promise<string> {
  const list = await listOf(150);
  for (let i = 150; i < 170; i++)
    expect((await api('addListItem', { schema_id: list.id, data: values(i) })).status).toBe(201);
  const ids = (await records(list.id)).map((r) => r.id);
  for (let i = 0; i < 15; i++) {
    const res = await api('updateListItem', {
      schema_id: list.id,
      item_id: ids[i],
      data: values(i + 500),
    });
    expect(res.status).toBe(200);
  }
  const many = ids.slice(15, 45).map((id, i) => ({ item_id: id, data: values(i + 900) }));
  expect((await api('updateListItems', { schema_id: list.id, items: many })).status).toBe(200);
  for (const id of ids.slice(45, 55))
    expect((await api('deleteListItem', { schema_id: list.id, item_id: id })).status).toBe(204);
  const gone = ids.slice(55, 75);
  expect((await api('deleteListItems', { schema_id: list.id, item_ids: gone })).status).toBe(204);
  return list.id;
}

describe('counts kept per value band', () => {
  it('stay equal to the records through adds, updates and deletes of one and of many', async () => {
    const listId = await writtenList();
    const { kept, counted } = await bandsKeptAndCounted(listId);
    expect(counted.length).toBeGreaterThan(50);
    expect(kept).toEqual(counted);
  });

  it('give the exact total of one range at any bound, for numbers, dates and date-times', async () => {
    const listId = await writtenList();
    const stored = await records(listId);
    const bounds = {
      price: ['-5000', '-130', '-129.99', '-0.046', '-0.05', '0', '0.5', '99', '119.99', '120'],
      day: ['2024-01-01', '2024-02-29', '2024-06-15', '2025-02-04'],
      at: ['2024-01-01T00:00:00Z', '2024-05-05T12:30:00.001Z', '2024-12-31T23:59:59.999Z'],
    } as const;
    let nonZero = 0;
    for (const [slug, list] of Object.entries(bounds) as [keyof typeof bounds, readonly string[]][])
      for (const bound of list)
        for (const op of Object.keys(COMPARE)) {
          const want = expected(stored, slug, op, bound);
          expect(await total(listId, slug, op, bound), `${slug} ${op} ${bound}`).toBe(want);
          if (want > 0 && want < stored.length) nonZero++;
        }
    expect(nonZero).toBeGreaterThan(40);
  });

  it('are what a first-time range total reads', async () => {
    const listId = await writtenList();
    const stored = await records(listId);
    // one more record in every kept number band: a total read from the bands counts them
    const [moved] = await queryRows<{ n: number }>(
      t.db,
      sql`with up as (update list_value_bands set records = records + 1
            where owner_id = ${owner.accountId} and list_key = hashtextextended(${listId}::text, 0)
              and slot = 1 and band < 0 returning 1)
          select count(*)::int as n from up`,
    );
    expect(moved!.n).toBeGreaterThan(3);
    expect(await total(listId, 'price', '<', '0')).toBe(
      expected(stored, 'price', '<', '0') + moved!.n,
    );
  });

  it('stay exact under concurrent writers', async () => {
    const list = await listOf(60);
    const ids = (await records(list.id)).map((r) => r.id);
    const writes = Array.from({ length: 60 }, (_, i) => {
      if (i % 3 === 0) return api('addListItem', { schema_id: list.id, data: values(i + 3000) });
      if (i % 3 === 1)
        return api('updateListItem', {
          schema_id: list.id,
          item_id: ids[i],
          data: values(i + 4000),
        });
      return api('deleteListItem', { schema_id: list.id, item_id: ids[i] });
    });
    const answers = await Promise.all(writes);
    expect(answers.every((r) => r.status < 300)).toBe(true);
    const { kept, counted } = await bandsKeptAndCounted(list.id);
    expect(kept).toEqual(counted);
    const stored = await records(list.id);
    expect(await total(list.id, 'price', '>=', '-0.05')).toBe(
      expected(stored, 'price', '>=', '-0.05'),
    );
  });

  it("are emptied of a deleted field's values once they are erased", async () => {
    const listId = await writtenList();
    const res = await api('deleteListSchemaField', { schema_id: listId, slug: 'price' });
    expect(res.status).toBe(204);
    const { kept } = await bandsKeptAndCounted(listId);
    expect(kept.filter((b) => b.slot === 1)).toEqual([]);
    expect(kept.filter((b) => b.slot === 4).length).toBeGreaterThan(10);
  });
});
