import { sql, type SQL } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/infra/db/client.js';
import { compileSort, compileWhere } from '../../src/lists/filters/compile.js';
import { parseFilters } from '../../src/lists/filters/parseFilters.js';
import { parseOrderBy } from '../../src/lists/filters/parseOrderBy.js';
import type { ItemQuery } from '../../src/lists/filters/query.js';
import { pageIdsQuery, selectPage } from '../../src/lists/items/pageQueries.js';
import { matchedByOf, ORDER_INDEX_INCLUDES } from '../../src/lists/items/pageStrategy.js';
import { hasPinnedPlan } from '../../src/lists/items/pinnedPlans.js';
import { onCitus } from '../../src/infra/db/engine.js';
import { makeList, type TestList } from '../helpers/lists.js';
import { testAppForFile } from '../helpers/testAppForFile.js';
import { listKeyInsert } from '../../src/lists/items/listKeyInsert.js';

/**
 * The two ways of reading a filtered page (src/lists/items/pageStrategy.ts) must answer the
 * same records in the same order; only their cost differs.
 */
let list: TestList;

const t = testAppForFile({ redis: false, tenants: ['owner'] });
beforeAll(async () => {
  list = await makeList(t.db, t.owner, [
    { slug: 'city', type: 'string' },
    { slug: 'score', type: 'number' },
    { slug: 'day', type: 'date' },
    { slug: 'flag', type: 'bool' },
  ]);
  // ties on every sort value, a tenth of each missing (the second sort segment), mixed-case
  // cities (text order is the collation's, with or without the unindexed form)
  const key = await listKeyInsert(t.db, list.id);
  await t.db.execute(sql`
    insert into list_items (id, schema_id, owner_id, data, t1, n1, d1, created_at, updated_at${key.column})
    select 'r' || k, ${list.id}, ${t.owner.accountId},
           jsonb_strip_nulls(jsonb_build_object('city', c, 'score', s, 'day', to_char(d, 'YYYY-MM-DD'),
             'flag', k % 2 = 0)),
           c, s, d,
           now() - (k % 97) * interval '1 minute', now() - (k % 89) * interval '1 second'${key.value}
    from generate_series(1, 3000) as k,
      lateral (select case when k % 10 = 0 then null else (array['Ab', 'ab', 'B', 'é', 'z'])[1 + k % 5] || (k % 7) end as c,
                      case when k % 10 = 3 then null else (k * 7919) % 50 end as s,
                      case when k % 10 = 5 then null else date '2024-01-01' + (k % 40) end as d) v`);
  await t.db.execute(sql`vacuum analyze list_items`);
}, 60_000);

function queryOf(filters: Record<string, string>, orderBy: string): ItemQuery {
  return {
    ownerId: list.ownerId,
    listId: list.id,
    fields: list.fields,
    conditions: parseFilters(list.fields, filters),
    links: {},
    sort: parseOrderBy(list.fields, orderBy),
  };
}

/**
 * The ways of reading a filtered page: walking in one pass or not, filtering first with the
 * page's rows looked up by key or read with the matches (`matches in one pass`), and both of
 * those kept under the shape's name, finding the matches in the condition's index (one
 * condition only, as the service names them: `kept …`).
 */
const READS = [
  'walk',
  'one pass',
  'filter first',
  'matches in one pass',
  'kept filter first',
  'kept matches in one pass',
] as const;
type PageRead = (typeof READS)[number];

async function pageIds(query: ItemQuery, offset: number, read: PageRead) {
  const kept = read.startsWith('kept');
  const filterFirst = kept || read === 'filter first' || read === 'matches in one pass';
  const rows = await selectPage(
    t.db,
    {
      ownerId: list.ownerId,
      listId: list.id,
      where: compileWhere(query, kept ? 'all' : 'none'),
      segments: compileSort(query.sort),
      filtered: true,
      filterFirst,
      walkInOnePass: read === 'one pass',
      matchesInOnePass: read.endsWith('matches in one pass'),
      named: kept,
      matchedBy: kept ? matchedByOf(query) : undefined,
    },
    50,
    offset,
  );
  return rows.map((r) => r.id);
}

describe('filtered pages read by filtering first or in one pass', () => {
  const filters: Record<string, string>[] = [
    { city: 'like,a%' },
    { score: '<,10' },
    { day: '>=,2024-01-20', score: '>,5' },
    { city: 'B3', flag: 'true' },
  ];
  const orders = [
    'score,desc',
    'score,asc',
    'city,asc',
    'city,desc',
    'day,desc',
    'flag,asc',
    'created_at,desc',
    'updated_at,asc',
  ];

  it('answer the same records in the same order as walking the sort, on every page', async () => {
    const citus = await onCitus(t.db);
    let compared = 0;
    for (const f of filters) {
      for (const o of orders) {
        const query = queryOf(f, o);
        for (const offset of [0, 50, 350]) {
          const walked = await pageIds(query, offset, 'walk');
          const at = `${JSON.stringify(f)} ${o} @${offset}`;
          // the kept reads where the service names its statements (listRead.ts): one
          // condition by equality or a range, and not on Citus
          const named = hasPinnedPlan(query) && !citus;
          const reads = READS.filter((r) => !r.startsWith('kept') || named);
          for (const read of reads.slice(1))
            expect(await pageIds(query, offset, read), `${at} ${read}`).toEqual(walked);
          compared += walked.length * reads.length;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('are never served by the sort column index', async () => {
    const query = queryOf({ city: 'like,a%' }, 'score,desc');
    const present = compileSort(query.sort)[0]!;
    const where = sql`${compileWhere(query)} and ${present.where!}`;
    const explain = async (order: SQL) =>
      (
        await queryRows<{ 'QUERY PLAN': string }>(
          t.db,
          sql`explain ${pageIdsQuery(where, order, 50, 0)}`,
        )
      )
        .map((r) => r['QUERY PLAN'])
        .join('\n');
    await t.db.execute(sql`set enable_sort = off`);
    try {
      // with sorting priced out, the sort's index is the planner's choice wherever it can serve
      expect(await explain(present.orderBy)).toMatch(/list_items_n1/);
      expect(await explain(present.unindexedOrderBy)).not.toMatch(/list_items_n1/);
    } finally {
      await t.db.execute(sql`reset enable_sort`);
    }
  });
});

describe('the order indexes', () => {
  it('include exactly the columns the page strategy counts on', async () => {
    const rows = await queryRows<{ name: string; included: string[] }>(
      t.db,
      sql`select i.relname as name,
            array(select a.attname::text from unnest(x.indkey[x.indnkeyatts:]) as k(n)
                  join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.n) as included
          from pg_index x join pg_class i on i.oid = x.indexrelid
          where x.indrelid = 'list_items'::regclass`,
    );
    const byIndex = new Map(rows.map((r) => [r.name, r.included]));
    for (const [column, included] of Object.entries(ORDER_INDEX_INCLUDES)) {
      const name = `list_items_${column === 'created_at' ? 'created' : column}_idx`;
      expect([...(byIndex.get(name) ?? [])].sort(), name).toEqual([...included].sort());
    }
  });
});
