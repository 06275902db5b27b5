import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/infra/db/client.js';
import { call } from '../helpers/call.js';
import type { Tenant } from '../helpers/factories.js';
import {
  addOneToEveryCount as addOne,
  keptCountsRow,
  startKeptCountApps,
  waitForKeptCounts,
  writeWhileRecounting,
} from '../helpers/keptCounts.js';
import type { TestApp } from '../helpers/testApp.js';
import { addItemsViaApi, createListViaApi } from '../helpers/viaApi.js';

/**
 * Counts per value band (src/lists/items/bandCounts.ts): a first-time range total is read
 * from the list's band counts brought forward over the writes since they were taken — adds,
 * updates and deletes of one and of many, concurrent ones, a field change — exact at any bound
 * (on a band's edge, inside one, negative, fractional) for numbers, dates and date-times. Each
 * total is compared with the records as the API answered them. Lists of any size use the
 * counts here, whatever their shape's last total (ANY), but where that is the case tested.
 */
/** band counts for a list of any size, and for a range whatever its shape's last total */
const ANY = { minRecords: 0, minMatches: 0, minShare: 0 };

let t: TestApp;
/** a second server on the same database that brings the counts forward after any write */
let eager: TestApp;
/** a third that reads the counts only where the range's shape last matched a share of the list (the default) */
let gated: TestApp;
let owner: Tenant;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ t, eager, gated, owner, close } = await startKeptCountApps(ANY, {
    minRecords: 0,
    minMatches: 0,
  }));
});
afterAll(() => close());

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

async function api(method: string, params: Record<string, unknown>, app = t) {
  return call(app.app, method, params, { key: owner.apiKey });
}

async function records(listId: string): Promise<Stored[]> {
  const res = await api('getListItems', { schema_id: listId, limit: 1000 });
  expect(res.status).toBe(200);
  return res.body.data as Stored[];
}

async function total(
  listId: string,
  slug: string,
  op: string,
  bound: string,
  app = t,
): Promise<number> {
  const res = await api(
    'getListItems',
    { schema_id: listId, filters: { [slug]: `${op},${bound}` }, limit: 1 },
    app,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.meta.total as number;
}

const COMPARE: Record<string, (a: number, b: number) => boolean> = {
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
};

type Slug = 'price' | 'day' | 'at';

/** Whether a record's value holds `slug op bound` (an empty field holds no range). */
function holds(record: Stored, [slug, op, bound]: Range): boolean {
  const key = (v: number | string) => (slug === 'price' ? Number(v) : Date.parse(String(v)));
  const v = record[slug];
  return v !== null && COMPARE[op]!(key(v), key(bound));
}

function expected(stored: Stored[], slug: Slug, op: string, bound: string) {
  return stored.filter((r) => holds(r, [slug, op, bound])).length;
}

/** A range condition: field, operator, bound. */
type Range = [slug: Slug, op: string, bound: string];

/** The total of two ranges combined, as getListItems answers it. */
async function pairTotal(listId: string, a: Range, b: Range, app = t): Promise<number> {
  const filters = { [a[0]]: `${a[1]},${a[2]}`, [b[0]]: `${b[1]},${b[2]}` };
  const res = await api('getListItems', { schema_id: listId, filters, limit: 1 }, app);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.meta.total as number;
}

const expectedPair = (stored: Stored[], a: Range, b: Range) =>
  stored.filter((r) => holds(r, a) && holds(r, b)).length;

/** Far outside every value, on the side `op` holds: every record with a value matches. */
const WIDE: Record<Slug, { below: string; above: string }> = {
  price: { below: '1000000', above: '-1000000' },
  day: { below: '2100-01-01', above: '1900-01-01' },
  at: { below: '2100-01-01T00:00:00Z', above: '1900-01-01T00:00:00Z' },
};

let primes = 0;

/**
 * Reads the pair's shape with bounds that hold every record with both values, most of the
 * list, so that the next pair of that shape is read from the band counts (PAIR_MIN_SHARE);
 * each time a bound never read before, so the read is a first-time one.
 */
async function primePair(listId: string, a: Range, b: Range, app = t) {
  primes++;
  const wide = ([slug, op]: Range): Range => {
    const below = op.startsWith('<');
    const edge = WIDE[slug][below ? 'below' : 'above'];
    // further out each time (a unit, a day, a second): still every value, never the same bound
    const step = below ? primes : -primes;
    const moved =
      slug === 'price'
        ? String(Number(edge) + step)
        : slug === 'day'
          ? new Date(Date.parse(edge) + step * 86_400_000).toISOString().slice(0, 10)
          : new Date(Date.parse(edge) + step * 1000).toISOString();
    return [slug, op, moved];
  };
  return pairTotal(listId, wide(a), wide(b), app);
}

const SLOTS = { price: 1, day: 4, at: 5 } as const;

/** The list's band counts of a slot as last taken: their snapshot and their bands. */
const kept = (listId: string, slot: number) =>
  keptCountsRow<{ snapshot: string; bands: string[]; cumulative: string[] }>(t.db, owner, listId, {
    table: 'list_band_counts',
    columns: 'bands::text[] as bands, cumulative::text[] as cumulative',
    slot,
  });

/** The slot's counts once taken after `snapshot` (none: once taken at all). */
const waitForCounts = (listId: string, slot: number, snapshot?: string) =>
  waitForKeptCounts(() => kept(listId, slot), snapshot);

/** One more record in the lowest counted band of prices: a total read from the counts counts it. */
const addOneToEveryCount = (listId: string) =>
  addOne(t.db, owner, listId, {
    table: 'list_band_counts',
    column: 'cumulative',
    slot: SLOTS.price,
  });

let reads = 0;

/**
 * Reads a range on each banded field, which counts the matches and takes the list's band
 * counts in the background, and waits until every one is taken (newer than `before`).
 */
async function countBands(listId: string, before: Record<number, string | undefined> = {}) {
  for (const [slug, slot] of Object.entries(SLOTS)) {
    // a bound never read before: a remembered total would answer without the counts
    reads++;
    const day = new Date(Date.UTC(2024, 0, 1) + reads * 86_400_000).toISOString().slice(0, 10);
    await total(listId, slug, '<', slug === 'price' ? String(reads / 1000) : day);
    await waitForCounts(listId, slot, before[slot]);
  }
}

/** values() with every field given: a list where no range's field is empty. */
function filled(i: number): Record<string, unknown> {
  const v = values(i);
  return {
    price: v.price ?? i,
    day: v.day ?? '2024-03-03',
    at: v.at ?? new Date(Date.UTC(2024, 5, 1) + i * 60_000).toISOString(),
  };
}

/** Sixty writes at once, data from `of`, while the price's counts are taken again. */
async function writeWhileCountingPrices(listId: string, of: typeof values) {
  const before = await kept(listId, SLOTS.price);
  const ids = (await records(listId)).map((r) => r.id);
  await writeWhileRecounting(t, owner, listId, ids, of, {
    table: 'list_band_counts',
    run: () => countBands(listId, { [SLOTS.price]: before!.snapshot }),
  });
}

/** A new list holding `count` records added in one batch. */
async function listOf(count: number, of = values): Promise<{ id: string }> {
  const list = await createListViaApi(t.app, owner, FIELDS);
  const items = Array.from({ length: count }, (_, i) => of(i));
  await addItemsViaApi(t.app, owner, list.id, items);
  return list;
}

/** Writes through every record method: added one and many, updated one and many, deleted. */
async function writeAll(listId: string, of = values) {
  await addItemsViaApi(
    t.app,
    owner,
    listId,
    Array.from({ length: 20 }, (_, i) => of(i + 200)),
  );
  for (let i = 150; i < 165; i++)
    expect((await api('addListItem', { schema_id: listId, data: of(i) })).status).toBe(201);
  const ids = (await records(listId)).map((r) => r.id);
  for (let i = 0; i < 15; i++) {
    const res = await api('updateListItem', {
      schema_id: listId,
      item_id: ids[i],
      data: of(i + 500),
    });
    expect(res.status).toBe(200);
  }
  const many = ids.slice(15, 45).map((id, i) => ({ item_id: id, data: of(i + 900) }));
  expect((await api('updateListItems', { schema_id: listId, items: many })).status).toBe(200);
  for (const id of ids.slice(45, 55))
    expect((await api('deleteListItem', { schema_id: listId, item_id: id })).status).toBe(204);
  const gone = ids.slice(55, 75);
  expect((await api('deleteListItems', { schema_id: listId, item_ids: gone })).status).toBe(204);
}

async function expectExactTotals(listId: string) {
  const stored = await records(listId);
  const bounds = {
    price: ['-5000', '-130', '-129.99', '-0.046', '-0.05', '0', '0.5', '99', '119.99', '120'],
    day: ['2024-01-01', '2024-02-29', '2024-06-15', '2025-02-04'],
    at: ['2024-01-01T00:00:00Z', '2024-05-05T12:30:00.001Z', '2024-12-31T23:59:59.999Z'],
  } as const;
  let between = 0;
  for (const [slug, list] of Object.entries(bounds) as [keyof typeof bounds, readonly string[]][])
    for (const bound of list)
      for (const op of Object.keys(COMPARE)) {
        const want = expected(stored, slug, op, bound);
        expect(await total(listId, slug, op, bound), `${slug} ${op} ${bound}`).toBe(want);
        if (want > 0 && want < stored.length) between++;
      }
  expect(between).toBeGreaterThan(40);
}

/**
 * Two ranges combined, each read after its shape last held most of the list: the banded one's
 * counts less the records its pair leaves out (bandPairs.ts) where the second's field is never
 * empty, else counted; at every pair of operators.
 */
async function expectExactPairs(listId: string) {
  const stored = await records(listId);
  // each pair's fields and bounds, at every pair of operators
  const bounds: [Slug, string, Slug, string][] = [
    ['price', '-130', 'day', '2024-06-15'],
    ['price', '120', 'day', '2024-02-29'],
    ['day', '2024-02-29', 'at', '2024-05-05T12:30:00.001Z'],
    ['at', '2024-12-31T23:59:59.999Z', 'price', '0'],
  ];
  const ops = Object.keys(COMPARE);
  const pairs = bounds.flatMap(([s1, b1, s2, b2]) =>
    ops.flatMap((o1) =>
      ops.map((o2): [Range, Range] => [
        [s1, o1, b1],
        [s2, o2, b2],
      ]),
    ),
  );
  let between = 0;
  for (const [a, b] of pairs) {
    expect(await primePair(listId, a, b)).toBeGreaterThan(stored.length / 2);
    const want = expectedPair(stored, a, b);
    expect(await pairTotal(listId, a, b), `${a.join(' ')} and ${b.join(' ')}`).toBe(want);
    if (want > 0 && want < stored.length) between++;
  }
  expect(between).toBeGreaterThan(40);
}

describe('counts per value band', () => {
  it('are taken per band of each number and date slot, after a read of a range', async () => {
    const list = await listOf(150);
    await countBands(list.id);
    const stored = await records(list.id);
    const price = await kept(list.id, SLOTS.price);
    const upto = price!.cumulative.map(Number);
    expect(upto.at(-1)).toBe(stored.filter((r) => r.price !== null).length);
    expect(upto.every((n, i) => i === 0 || n > upto[i - 1]!)).toBe(true);
    // two significant digits: -5000…5000 and their hundredths in fewer bands than values
    expect(price!.bands.length).toBeGreaterThan(20);
    expect(price!.bands.length).toBeLessThan(new Set(stored.map((r) => r.price)).size);
    expect(price!.bands).toContain('-130');
    expect(price!.bands).toContain('120');
  });

  it('give the exact total of one range at any bound after writes of every kind since', async () => {
    const list = await listOf(150);
    await countBands(list.id);
    await writeAll(list.id);
    await expectExactTotals(list.id);
  });

  it('are what a first-time range total reads', async () => {
    const list = await listOf(150);
    await countBands(list.id);
    const stored = await records(list.id);
    await addOneToEveryCount(list.id);
    expect(await total(list.id, 'price', '<', '0.5')).toBe(
      expected(stored, 'price', '<', '0.5') + 1,
    );
  });

  it('are not read for a range whose shape last matched a small share of the list', async () => {
    const list = await listOf(150);
    await countBands(list.id);
    const stored = await records(list.id);
    await addOneToEveryCount(list.id);
    const fromCounts = (bound: string) => expected(stored, 'price', '<', bound) + 1;
    // no last total of the shape on this server: the counts answer
    expect(await total(list.id, 'price', '<', '0.5', gated)).toBe(fromCounts('0.5'));
    // nothing below the lowest band: the counts answer 0, the shape's last total now
    expect(await total(list.id, 'price', '<', '-6000', gated)).toBe(0);
    // so the next bound is counted, exactly
    expect(await total(list.id, 'price', '<', '0.4', gated)).toBe(
      expected(stored, 'price', '<', '0.4'),
    );
    // and that count, half the list, sends the next one to the counts again
    expect(await total(list.id, 'price', '<', '0.3', gated)).toBe(fromCounts('0.3'));
  });

  it('total two ranges where their shape last held more than half the list, and only there', async () => {
    const list = await listOf(150, filled);
    await countBands(list.id);
    const stored = await records(list.id);
    const price = (bound: string): Range => ['price', '<', bound];
    const day = (bound: string): Range => ['day', '>=', bound];
    const exact = (a: Range, b: Range) => expectedPair(stored, a, b);
    // no last total of the shape yet: counted (before the counts are made one off)
    expect(await pairTotal(list.id, price('0.5'), day('2024-03-01'), gated)).toBe(
      exact(price('0.5'), day('2024-03-01')),
    );
    expect(exact(price('0.5'), day('2024-03-01'))).toBeLessThan(stored.length / 2);
    await addOneToEveryCount(list.id);
    // the shape's last total under half the list: counted, exactly
    expect(await pairTotal(list.id, price('0.4'), day('2024-03-02'), gated)).toBe(
      exact(price('0.4'), day('2024-03-02')),
    );
    // more than half: this read is still counted, and the next one reads the price's counts
    const wide: [Range, Range] = [price('1000000'), day('1900-01-01')];
    expect(await pairTotal(list.id, ...wide, gated)).toBe(exact(...wide));
    expect(exact(...wide)).toBeGreaterThan(stored.length / 2);
    expect(await pairTotal(list.id, price('0.3'), day('2024-03-03'), gated)).toBe(
      exact(price('0.3'), day('2024-03-03')) + 1,
    );
    // whose total, under half, sends the next pair of the shape to counting again
    expect(await pairTotal(list.id, price('0.2'), day('2024-03-04'), gated)).toBe(
      exact(price('0.2'), day('2024-03-04')),
    );
  });

  it('give the exact total of two ranges after writes of every kind since', async () => {
    const list = await listOf(150, filled);
    await countBands(list.id);
    await writeAll(list.id, filled);
    await expectExactPairs(list.id);
    // and where the second range's field is empty in some records: counted, as exactly
    const gaps = await listOf(150);
    await countBands(gaps.id);
    await writeAll(gaps.id);
    await expectExactPairs(gaps.id);
  });

  it('are taken for both ranges of a pair on a list read only by pairs', async () => {
    const list = await listOf(150, filled);
    const price = (bound: string): Range => ['price', '>=', bound];
    const day: Range = ['day', '<', '2100-01-01'];
    // counted: no last total of the shape; then refused (no counts yet), which takes both
    expect(await pairTotal(list.id, price('-6000'), day)).toBe(150);
    expect(await pairTotal(list.id, price('-6001'), day)).toBe(150);
    await waitForCounts(list.id, SLOTS.price);
    await waitForCounts(list.id, SLOTS.day);
    await addOneToEveryCount(list.id);
    // a server that found the counts missing tries them again once their recount ends
    await expect
      .poll(async () => pairTotal(list.id, price(String(-6002 - reads++)), day), { timeout: 5000 })
      .toBe(151);
  });

  it('total two ranges exactly under concurrent writers', async () => {
    const list = await listOf(60, filled);
    await countBands(list.id);
    await writeWhileCountingPrices(list.id, filled);
    await expectExactPairs(list.id);
  });

  it("answer a pair only where no record's field of the second range is empty", async () => {
    const list = await createListViaApi(t.app, owner, FIELDS);
    // every record with a day: the day's counts say so, and the empty days are not counted
    const items = Array.from({ length: 120 }, (_, i) => ({ ...values(i), day: '2024-03-03' }));
    await addItemsViaApi(t.app, owner, list.id, items);
    await countBands(list.id);
    const price: Range = ['price', '<', '0.5'];
    const day: Range = ['day', '<', '2024-06-01'];
    const exactNow = async (a: Range, b: Range) => {
      await primePair(list.id, a, b);
      return expectedPair(await records(list.id), a, b);
    };
    const before = await exactNow(price, day);
    expect(await pairTotal(list.id, price, day)).toBe(before);
    // one record more, in the price's range, without a day, and the day's counts one more:
    // brought forward over the insert, they say every record holds a day, so the counts
    // answer, and the record without a day stays in the price's total
    const added = () => api('addListItem', { schema_id: list.id, data: { price: -4000 } });
    expect((await added()).status).toBe(201);
    await addOne(t.db, owner, list.id, {
      table: 'list_band_counts',
      column: 'cumulative',
      slot: SLOTS.day,
    });
    const price2: Range = ['price', '<', '0.6'];
    const wrong = (await exactNow(price2, day)) + 1;
    expect(await pairTotal(list.id, price2, day)).toBe(wrong);
    // another without a day: the counts see a record more than they hold, so the pair is
    // counted, exactly
    expect((await added()).status).toBe(201);
    const price3: Range = ['price', '<', '0.7'];
    const exact = await exactNow(price3, day);
    expect(await pairTotal(list.id, price3, day)).toBe(exact);
  });

  it('stay exact under concurrent writers, and are taken again while they write', async () => {
    const list = await listOf(60);
    await countBands(list.id);
    await writeWhileCountingPrices(list.id, values);
    await expectExactTotals(list.id);
  });

  it('are brought forward over the writes since, to what a count of the list gives', async () => {
    const list = await listOf(150);
    await countBands(list.id);
    // a band no record holds, of 7 records: kept by bringing the counts forward, dropped by a
    // count of the list, so it tells the two apart
    await t.db.execute(sql`update list_band_counts
      set bands = array_prepend(-1000000000::numeric, bands),
        cumulative = array_prepend(7::bigint, array(select c + 7 from unnest(cumulative) c))
      where owner_id = ${owner.accountId} and list_key = hashtextextended(${list.id}::text, 0)
        and slot = ${SLOTS.price}`);
    const before = await kept(list.id, SLOTS.price);
    await writeAll(list.id);
    // a server that brings the counts forward after any write: one read of a new bound
    await total(list.id, 'price', '<', '-1', eager);
    const after = await waitForCounts(list.id, SLOTS.price, before!.snapshot);
    const [full] = await queryRows<{ bands: string[]; cumulative: string[] }>(
      t.db,
      sql`select array_agg(band::text order by band) as bands,
            array_agg(upto::text order by band) as cumulative
          from (select band, sum(n) over (order by band) as upto
                from (select list_number_band(n1) as band, count(*) as n from list_items
                      where owner_id = ${owner.accountId}
                        and list_key = hashtextextended(${list.id}::text, 0) and n1 is not null
                      group by 1) per) x`,
    );
    expect(after.bands).not.toEqual(before!.bands);
    expect(after.bands).toEqual(['-1000000000', ...full!.bands]);
    expect(after.cumulative).toEqual(['7', ...full!.cumulative.map((c) => String(Number(c) + 7))]);
  });

  it('are not read across a field change, and are taken again after it', async () => {
    const list = await listOf(100);
    await countBands(list.id);
    const before = await kept(list.id, SLOTS.price);
    const res = await api('deleteListSchemaField', { schema_id: list.id, slug: 'at' });
    expect(res.status).toBe(204);
    const stored = await records(list.id);
    expect(await total(list.id, 'price', '>=', '-129.99')).toBe(
      expected(stored, 'price', '>=', '-129.99'),
    );
    await waitForCounts(list.id, SLOTS.price, before!.snapshot);
    expect(await total(list.id, 'price', '<', '-0.05')).toBe(
      expected(stored, 'price', '<', '-0.05'),
    );
  });
});
