import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/call.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { makeList, type TestList } from '../helpers/lists.js';
import { onEveryStatement, readsListItems, type SentStatement } from '../helpers/sentStatements.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';

/**
 * A combined filter with an equality whose index holds the other columns is counted in that
 * index's order (pageStrategy.coveringEquality): once writes have cleared the visibility bits
 * of part of a list's heap, Postgres would otherwise count half the list by reading the whole
 * heap, as it does for the same count written without the order (checked here first, so the
 * case is one where the order decides).
 */
const sent: SentStatement[] = [];
onEveryStatement((statement) => {
  if (readsListItems(statement.text)) sent.push(statement);
});

let t: TestApp;
let owner: Tenant;
let list: TestList;
let admin: pg.Client;

beforeAll(async () => {
  t = await startTestApp({ redis: false, env: { LIST_CACHE_ROWS: '0' } });
  owner = await makeTenant(t.db);
  list = await makeList(t.db, owner, [
    { slug: 'tag', type: 'string' },
    { slug: 'score', type: 'number' },
    { slug: 'day', type: 'date' },
  ]);
  admin = new pg.Client({ connectionString: t.database.url });
  await admin.connect();
  // the list alone in its table, its records added together, half of them tagged t1
  await admin.query(
    `insert into list_items (id, schema_id, owner_id, data, t1, n1, d1)
     select 'r' || lpad(k::text, 6, '0'), $1, $2::bigint, '{}', 't' || (k % 2), k % 1000,
       date '2024-01-01' + (k % 730)
     from generate_series(1, 100000) as k`,
    [list.id, owner.accountId],
  );
  await admin.query('update list_schemas set item_count = 100000 where id = $1', [list.id]);
  await admin.query('vacuum analyze list_items');
  // then written here and there: one record on two heap pages in five, whose all-visible
  // bits stay cleared until a vacuum, as Postgres' statistics then know
  await admin.query(
    `update list_items set updated_at = now() where ctid in (
       select min(ctid) from list_items group by (ctid::text::point)[0]
       having (ctid::text::point)[0]::int % 5 < 2)`,
  );
  await admin.query('analyze list_items');
}, 120_000);
afterAll(async () => {
  await admin.end();
  await t.close();
});

async function planOf(text: string, values: unknown[]): Promise<string> {
  const { rows } = await admin.query(`explain ${text}`, values);
  return rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
}

describe('a combined count with an equality, once writes have cleared visibility bits', () => {
  it.each([
    ['equality + range', { tag: 't1', score: '>=,0' }, 'day,asc'],
    ['three combined', { tag: 't1', score: '<,1000', day: '>=,2024-01-01' }, 'created_at,desc'],
  ])('%s: counts along the equality index, not over the list heap', async (_, f, order) => {
    const read = () =>
      call(
        t.app,
        'getListItems',
        { schema_id: list.id, filters: f, order_by: order, limit: 50 },
        { key: owner.apiKey },
      );
    sent.length = 0;
    const res = await read();
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(50_000);
    const count = sent.find((s) => /count\(\*\)/.test(s.text))!;
    expect(count.text).toMatch(/order by "t1", "id"/);

    // the same count without the order: Postgres reads the heap
    const unordered = count.text.replace(/ order by "t1", "id"/, '');
    expect(unordered).not.toBe(count.text);
    expect(await planOf(unordered, count.values)).toMatch(/(Bitmap Heap|Seq) Scan on list_items/);

    const plan = await planOf(count.text, count.values);
    expect(plan).toMatch(/Index Only Scan using list_items_t1_idx on list_items/);
    expect(plan).not.toMatch(/(Bitmap Heap|Seq) Scan on list_items|Sort/);
  });

  it('leaves a filter without such an equality to the planner', async () => {
    sent.length = 0;
    const res = await call(
      t.app,
      'getListItems',
      { schema_id: list.id, filters: { score: '<,10', day: '>=,2024-01-01' }, limit: 50 },
      { key: owner.apiKey },
    );
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(1000);
    const count = sent.find((s) => /count\(\*\)/.test(s.text))!;
    expect(count.text).not.toMatch(/order by/);
  });
});
