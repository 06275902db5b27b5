import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/infra/db/client.js';
import { pgTextArray } from '../../src/infra/db/textArray.js';
import { call } from '../helpers/call.js';
import { createCollatedTestDatabase, type TestDatabase } from '../helpers/database.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { addOneToEveryCount, keptCountsRow, waitForKeptCounts } from '../helpers/keptCounts.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { addItemsViaApi, createListViaApi } from '../helpers/viaApi.js';

/**
 * Counts per text value (src/lists/items/valueCounts.ts) keep their values in byte order and
 * find a value by binary search in that order. On a database that sorts text in a language's
 * order instead (ICU `de-DE` here; the other tests run on `C.UTF-8`, which sorts as bytes do),
 * the search must still use byte order, or it misses values the counts hold: each total below
 * is read from the counts (each count is one more than the records) and must be exact.
 */
const CITIES = ['Zürich', 'amsterdam', 'Amsterdam', 'Ålesund', 'berlin', '10x', '9x', 'z', 'É'];
const PER_CITY = 40;
const FIELDS = [{ name: 'City', slug: 'city', type: 'string', is_required: false }];
const CITY_SLOT = 1;

let database: TestDatabase;
let t: TestApp;
let owner: Tenant;

beforeAll(async () => {
  database = await createCollatedTestDatabase('de-DE');
  t = await startTestApp({
    database,
    env: { RATE_LIMIT_PER_MINUTE: '1000000' },
    keptCounts: { minRecords: 0, minMatches: 0, minShare: 0 },
  });
  owner = await makeTenant(t.db);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

const byteOrder = (values: string[]) =>
  [...values].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));

async function total(listId: string, city: string): Promise<number> {
  const res = await call(
    t.app,
    'getListItems',
    { schema_id: listId, filters: { city }, limit: 1 },
    { key: owner.apiKey },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.meta.total as number;
}

const keptCities = (listId: string) =>
  keptCountsRow<{ snapshot: string; vals: string[] }>(t.db, owner, listId, {
    table: 'list_value_counts',
    columns: 'vals',
    slot: CITY_SLOT,
  });

describe('counts per text value on a database that does not sort text as bytes', () => {
  it('runs on a database whose own order of these cities is not byte order', async () => {
    const [row] = await queryRows<{ sorted: string[] }>(
      t.db,
      sql`select array_agg(c order by c) as sorted from unnest(${pgTextArray(CITIES)}::text[]) c`,
    );
    expect(row!.sorted).not.toEqual(byteOrder(CITIES));
  });

  it('keep the values in byte order and answer each one exactly, before and after writes', async () => {
    const list = await createListViaApi(t.app, owner, FIELDS);
    const items = CITIES.flatMap((city) => Array.from({ length: PER_CITY }, () => ({ city })));
    await addItemsViaApi(t.app, owner, list.id, items);
    // a first equality takes the counts, in the background
    expect(await total(list.id, 'nowhere')).toBe(0);
    const kept = await waitForKeptCounts(() => keptCities(list.id));
    expect(kept.vals).toEqual(byteOrder(CITIES));

    await addOneToEveryCount(t.db, owner, list.id, {
      table: 'list_value_counts',
      column: 'counts',
      slot: CITY_SLOT,
    });
    for (const city of CITIES) expect(await total(list.id, city), city).toBe(PER_CITY + 1);
    expect(await total(list.id, 'Zurich')).toBe(0);

    // writes since the counts: each total brought forward over them, still from the counts
    await addItemsViaApi(t.app, owner, list.id, [{ city: 'É' }, { city: '9x' }, { city: 'É' }]);
    expect(await total(list.id, 'É')).toBe(PER_CITY + 3);
    expect(await total(list.id, '9x')).toBe(PER_CITY + 2);
    expect(await total(list.id, 'Ålesund')).toBe(PER_CITY + 1);
  });
});
