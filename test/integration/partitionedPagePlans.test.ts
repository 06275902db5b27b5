import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/infra/db/client.js';
import { makeList, type TestList } from '../helpers/lists.js';
import { firstSegmentPage, planText } from '../helpers/pagePlans.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

/**
 * The page statement on list_items as migration 0021 partitions it by list, so reads do not
 * grow with other lists' records (docs/records.md, "One list's records in one partition").
 * Every part of the statement must name the list, or Postgres plans and probes every
 * partition.
 */
let list: TestList;

const t = testAppForFile({ redis: false, tenants: ['owner'] });
beforeAll(async () => {
  list = await makeList(t.db, t.owner, [
    { slug: 'city', type: 'string' },
    { slug: 'score', type: 'number' },
  ]);
  const others = await Promise.all(
    [1, 2, 3, 4, 5, 6, 7].map((n) =>
      makeList(t.db, t.owner, [{ slug: 'x', type: 'string' }], `o${n}`),
    ),
  );
  const lists = [list.id, ...others.map((o) => o.id)];
  await t.db.execute(sql`
    insert into list_items (id, schema_id, list_key, owner_id, data, t1, n1)
    select 'r' || k, s, hashtextextended(s, 0), ${t.owner.accountId},
           jsonb_build_object('city', 'c' || (k % 50), 'score', k), 'c' || (k % 50), k
    from generate_series(1, 8000) as k,
         lateral (select (array[${sql.join(
           lists.map((id) => sql`${id}::text`),
           sql`, `,
         )}])[1 + k % ${lists.length}] as s) as pick`);
  await t.db.execute(sql`vacuum analyze list_items`);
}, 60_000);

/** The partitions a plan reads. */
function partitionsIn(plan: string): Set<string> {
  return new Set(plan.match(/list_items_p\d+/g) ?? []);
}

describe('a page on a table partitioned by list', () => {
  it('the lists are spread over more than one partition', async () => {
    const rows = await queryRows<{ n: number }>(
      t.db,
      sql`select count(distinct tableoid)::int as n from list_items`,
    );
    expect(rows[0]!.n).toBeGreaterThan(1);
  });

  it('reads one partition, its rows looked up by id inside the list (the deferred join)', async () => {
    // the deferred join (not one pass), whose rows are looked up by id
    const query = firstSegmentPage(list, { city: 'c10' }, 'score,desc', 0, false);
    const plan = await planText(t.db, query);
    expect(plan).toMatch(/= ANY/);
    expect([...partitionsIn(plan)]).toHaveLength(1);
    const rows = await queryRows<{ id: string }>(t.db, query);
    // 40 of the list's 1,000 records are in c10: the whole match fits the page
    expect(rows).toHaveLength(await countOf(list.id, 'c10'));
    expect(rows.length).toBeGreaterThan(0);
  });
});

async function countOf(listId: string, city: string): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from list_items where schema_id = ${listId} and t1 = ${city}`,
  );
  return rows[0]!.n;
}
