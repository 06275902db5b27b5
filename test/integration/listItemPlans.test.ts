import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/infra/db/client.js';
import { compileSort, compileWhere } from '../../src/lists/filters/compile.js';
import { pageIdsQuery } from '../../src/lists/items/pageQueries.js';
import { ONE_PASS_MAX_SKIPPED } from '../../src/lists/items/pageStrategy.js';
import { call } from '../helpers/call.js';
import { makeList, type TestList } from '../helpers/lists.js';
import { firstSegmentPage, listQuery, planText } from '../helpers/pagePlans.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

/**
 * The plans Postgres picks for the page query the service sends (docs/records.md).
 * Plans depend on statistics, so the list is big enough (20,000 records among 60,000 rows)
 * and analyzed, as a live table is by autovacuum.
 */
let list: TestList;

const t = testAppForFile({ redis: false, tenants: ['owner'] });
beforeAll(async () => {
  list = await makeList(t.db, t.owner, [
    { slug: 'city', type: 'string' },
    { slug: 'score', type: 'number' },
  ]);
  const other = await makeList(t.db, t.owner, [{ slug: 'x', type: 'string' }], 'noise');
  // rows of both lists interleaved; 200 distinct cities, so one city is 0.5 % of the list
  await t.db.execute(sql`
    insert into list_items (id, schema_id, list_key, owner_id, data, t1, n1)
    select 'r' || k, s, hashtextextended(s, 0), ${t.owner.accountId},
           jsonb_build_object('city', 'c' || (k % 600), 'score', (k * 7919) % 100000),
           'c' || (k % 600), (k * 7919) % 100000
    from generate_series(1, 60000) as k,
      lateral (select case when k % 3 = 0 then ${list.id} else ${other.id} end as s) l`);
  await t.db.execute(sql`vacuum analyze list_items`);
}, 60_000);

function planOf(filters: Record<string, string>, orderBy: string): Promise<string> {
  const query = listQuery(list, filters, orderBy);
  const where = compileWhere(query);
  const first = compileSort(query.sort)[0]!;
  const scoped = first.where ? sql`${where} and ${first.where}` : where;
  return planText(t.db, pageIdsQuery(scoped, first.orderBy, 50, 0));
}

describe('page plans on slotted fields', () => {
  it('answers string equality + order by a number from the text slot index alone', async () => {
    const plan = await planOf({ city: 'c3' }, 'score,asc');
    expect(plan).toMatch(/Index Only Scan using list_items_t1_idx/);
  });

  it('also for order by created_at, and descending', async () => {
    expect(await planOf({ city: 'c3' }, 'created_at,desc')).toMatch(
      /Index Only Scan using list_items_t1_idx/,
    );
    expect(await planOf({ city: 'c3' }, 'score,desc')).toMatch(
      /Index Only Scan using list_items_t1_idx/,
    );
  });

  it('walks the number slot index for a number range ordered by that number', async () => {
    expect(await planOf({ score: '>=,99000' }, 'score,asc')).toMatch(/list_items_n1_idx/);
  });

  it('keeps the records table vacuumed after 2 % new rows, so these scans stay index-only', async () => {
    // each of list_items' partitions (migration 0021): autovacuum visits those, not the parent
    const rows = await queryRows<{ options: string[] }>(
      t.db,
      sql`select c.reloptions as options from pg_inherits i join pg_class c on c.oid = i.inhrelid
          where i.inhparent = 'list_items'::regclass`,
    );
    expect(rows).toHaveLength(16);
    for (const row of rows)
      expect(row.options).toEqual(
        expect.arrayContaining([
          'autovacuum_vacuum_insert_scale_factor=0.02',
          'autovacuum_vacuum_scale_factor=0.02',
          'autovacuum_analyze_scale_factor=0.02',
        ]),
      );
  });
});

describe('filtered totals', () => {
  it.each([
    [{ score: '>=,50000' }, 'list_items_n1_count_idx'],
    [{ city: 'c3' }, 'list_items_t1_count_idx'],
  ])('counts %j from the narrow count index, index-only', async (filters, index) => {
    const where = compileWhere(listQuery(list, filters));
    expect(await planText(t.db, sql`select count(*) from list_items where ${where}`)).toMatch(
      new RegExp(`Index Only Scan using ${index}`),
    );
  });
});

describe('lookups by id alone (the 403-or-404 question, after the own rows missed)', () => {
  it('find a record through the primary key (id, owner_id), not by scanning the table', async () => {
    expect(await planText(t.db, sql`select owner_id from list_items where id = ${'r123'}`)).toMatch(
      /list_items_pkey/,
    );
  });
});

describe('unfiltered pages: one pass for the first pages, the deferred join past them', () => {
  function unfilteredPlan(offset: number): Promise<string> {
    return planText(
      t.db,
      firstSegmentPage(list, {}, 'score,asc', offset, offset < ONE_PASS_MAX_SKIPPED),
    );
  }

  it('reads page 1 in one walk of the sort index, without a second probe per row', async () => {
    const plan = await unfilteredPlan(0);
    expect(plan).toMatch(/Index Scan using list_items_n1_idx/);
    expect(plan).not.toMatch(/Join|Nested Loop|list_items_pkey/);
  });

  it('skips a deep offset index-only, then fetches the page by primary key', async () => {
    const plan = await unfilteredPlan(5000);
    expect(plan).toMatch(/Index Only Scan using list_items_n1_idx/);
    expect(plan).toMatch(/list_items_pkey/);
    // the ids first, on their own (an InitPlan), then one probe of the key with all of them:
    // no join of the table to itself for the planner to weigh
    expect(plan).toMatch(/InitPlan/);
    expect(plan).toMatch(/id = ANY/);
    expect(plan).not.toMatch(/Join|Nested Loop/);
  });

  it('answers the same rows on both sides of the switch', async () => {
    const get = async (limit: number, page: number) => {
      const res = await call(
        t.app,
        'getListItems',
        { schema_id: list.id, order_by: 'score,asc', limit, page },
        { key: t.owner.apiKey },
      );
      expect(res.status).toBe(200);
      return (res.body.data as { id: string }[]).map((r) => r.id);
    };
    const expected = await queryRows<{ id: string }>(
      t.db,
      sql`select id from list_items where schema_id = ${list.id}
          order by n1, id offset 400 limit 200`,
    );
    // offset 400 is read in one pass, offset 500 through the deferred join
    const [whole, first, second] = await Promise.all([get(200, 3), get(100, 5), get(100, 6)]);
    expect(whole).toEqual(expected.map((r) => r.id));
    expect([...first, ...second]).toEqual(whole);
  });
});
