import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, type DatabaseHandle } from '../../src/infra/db/client.js';
import { call } from '../helpers/call.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { TEST_CITUS_URL } from '../helpers/env.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { preparedShapes, type PreparedShape } from '../helpers/preparedShapes.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { addItemsViaApi, createListViaApi } from '../helpers/viaApi.js';

/**
 * A first-time read of one slotted condition sends its count under its shape's name with its
 * values out of the planner's sight (src/infra/db/unplannedValue.ts) to sessions that keep
 * one plan for any value (src/infra/db/keptPlans.ts): Postgres plans it once and keeps that
 * plan. The small list read sits beside a large one: left to Postgres's own choice, with the
 * list's key in sight every plan made for the small list looked cheaper than the kept one,
 * and each read was planned again. The app runs on one connection a pool, so what that
 * connection holds can be asked of it between requests. Nothing is remembered
 * (LIST_CACHE_ROWS=0): every read counts. On Citus (the CI's Citus step) the reads answer
 * the same and nothing is named.
 */
let database: TestDatabase;
let handle: DatabaseHandle;
let t: TestApp;
let owner: Tenant;
let small: string;
const SMALL = 60;

beforeAll(async () => {
  database = await createTestDatabase();
  handle = connectPostgres(database.url, pino({ level: 'silent' }), { max: 1 });
  const env = { RATE_LIMIT_PER_MINUTE: '100000', LIST_CACHE_ROWS: '0' };
  t = await startTestApp({ database: { ...database, handle }, env });
  owner = await makeTenant(t.db);
  const fields = [
    { name: 'Amount', slug: 'amount', type: 'number' },
    { name: 'Tag', slug: 'tag', type: 'string' },
    { name: 'Day', slug: 'day', type: 'date' },
  ];
  const record = (i: number) => ({
    amount: i,
    tag: `t${i % 10}`,
    day: `2026-01-${String(1 + (i % 28)).padStart(2, '0')}`,
  });
  const large = (await createListViaApi(t.app, owner, fields, { name: 'Large' })).id;
  for (let batch = 0; batch < 3; batch++) {
    const items = Array.from({ length: 1000 }, (_, i) => record(batch * 1000 + i));
    await addItemsViaApi(t.app, owner, large, items);
  }
  small = (await createListViaApi(t.app, owner, fields, { name: 'Small' })).id;
  await addItemsViaApi(
    t.app,
    owner,
    small,
    Array.from({ length: SMALL }, (_, i) => record(i)),
  );
  // the statistics that tell the two lists apart
  await t.db.execute(sql`analyze list_items`);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await handle?.close();
  await database?.drop();
});

/** The connection's named statements that read list_items. */
async function keptStatements(): Promise<PreparedShape[]> {
  return (await preparedShapes(t.db)).filter((s) => s.statement.includes('list_items'));
}

async function readSmall(filters: Record<string, string>, orderBy: string) {
  const res = await call(
    t.app,
    'getListItems',
    { schema_id: small, filters, order_by: orderBy, limit: 5 },
    { key: owner.apiKey },
  );
  expect(res.status).toBe(200);
  return res.body as { data: { amount: number; tag: string }[]; meta: { total: number } };
}

describe('the count and page of one slotted condition', () => {
  it('keep one plan for every value of a range, and answer each', async () => {
    for (let i = 0; i < 9; i++) {
      const bound = 5 + i * 6;
      const page = await readSmall({ amount: `<,${bound}` }, 'day,asc');
      expect(page.meta.total).toBe(bound);
      expect(page.data).toHaveLength(5);
      expect(page.data.every((r) => r.amount < bound)).toBe(true);
    }
    const kept = (await keptStatements()).filter((s) => s.statement.includes('"n1" <'));
    if (TEST_CITUS_URL) {
      // statements go unnamed there (infra/db/shapeStatements.ts)
      expect(kept).toHaveLength(0);
      return;
    }
    expectKept(kept);
  });

  it('keep one plan for every value of an equality, and answer each', async () => {
    for (let i = 0; i < 9; i++) {
      const page = await readSmall({ tag: `t${i}` }, 'amount,desc');
      expect(page.meta.total).toBe(SMALL / 10);
      // the largest amounts of the tag, newest first
      expect(page.data.map((r) => r.amount)).toEqual([50, 40, 30, 20, 10].map((a) => a + i));
    }
    const kept = (await keptStatements()).filter((s) => s.statement.includes('"t1" ='));
    if (TEST_CITUS_URL) {
      expect(kept).toHaveLength(0);
      return;
    }
    expectKept(kept);
  });
});

/**
 * The count was sent, and every statement ran on its one kept plan, one of them more than five
 * times (a first read counts alone; the later ones may bring their page in the count's
 * statement: countedPage.ts).
 */
function expectKept(kept: PreparedShape[]): void {
  expect(kept.some((s) => /count\(\*\)/.test(s.statement))).toBe(true);
  expect(kept.some((s) => s.generic_plans > 5)).toBe(true);
  for (const s of kept) expect(s.custom_plans).toBe(0);
}
