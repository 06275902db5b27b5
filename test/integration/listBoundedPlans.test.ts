import { sql } from 'drizzle-orm';
import pg from 'pg';
import { queryShapeRows } from '../../src/infra/db/shapeStatements.js';
import { BANDED_SLOTS } from '../../src/lists/items/bandCounts.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/call.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { keptCountsRow, waitForKeptCounts } from '../helpers/keptCounts.js';
import { makeList, type TestList } from '../helpers/lists.js';
import { onEveryStatement, readsListItems, type SentStatement } from '../helpers/sentStatements.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';

/**
 * No statement getListItems sends reads other lists' records: every count and page of a
 * filter — one condition, two or three combined, equality, ranges and `like` — is answered
 * from the list's own index entries. The list is a tenth of a table holding other owners'
 * lists, analyzed and vacuumed as autovacuum keeps a live table; the statements are the
 * ones the service really sent, explained with their own parameters.
 */
const sent: SentStatement[] = [];
onEveryStatement((statement) => {
  if (readsListItems(statement.text) && !/^explain/i.test(statement.text)) sent.push(statement);
});

let t: TestApp;
let owner: Tenant;
let list: TestList;
/** a connection of its own: the app's statement timeout is not meant for loading a table */
let admin: pg.Client;

beforeAll(async () => {
  t = await startTestApp({ redis: false, env: { LIST_CACHE_ROWS: '0' } });
  owner = await makeTenant(t.db);
  list = await makeList(t.db, owner, [
    { slug: 'city', type: 'string' },
    { slug: 'tag', type: 'string' },
    { slug: 'score', type: 'number' },
    { slug: 'price', type: 'number' },
    { slug: 'day', type: 'date' },
  ]);
  admin = new pg.Client({ connectionString: t.database.url });
  await admin.connect();
  // one row in ten is the list's; the rest belong to 200 lists of other owners, all of them in
  // the list's own partition of list_items (migration 0021): its neighbours there are the ones
  // a scan of the partition would read
  const { rows: picked } = await admin.query<{ names: string[] }>(
    `with mine as (
       select r from generate_series(0, 15) r
       where satisfies_hash_partition('list_items'::regclass, 16, r, hashtextextended($1, 0)))
     select array(
       select 'other' || g from generate_series(1, 100000) g, mine
       where satisfies_hash_partition('list_items'::regclass, 16, mine.r, hashtextextended('other' || g, 0))
       limit 200) as names`,
    [list.id],
  );
  expect(picked[0]!.names).toHaveLength(200);
  await admin.query(
    `
    insert into list_items (id, schema_id, list_key, owner_id, data, t1, t2, n1, n2, d1)
    select 'r' || k, s, hashtextextended(s, 0),
      case when k % 10 = 0 then $2::bigint else 1000000 + (k % 200) end,
      jsonb_build_object('city', 'c' || (k % 1000), 'tag', 't' || (k % 7), 'score', (k * 7919) % 1000,
        'price', k % 500, 'day', to_char(date '2024-01-01' + (k % 730), 'YYYY-MM-DD')),
      'c' || (k % 1000), 't' || (k % 7), (k * 7919) % 1000, k % 500,
      date '2024-01-01' + (k % 730)
    from generate_series(1, 100000) as k,
      lateral (select case when k % 10 = 0 then $1 else ($3::text[])[1 + k % 200] end as s) l`,
    [list.id, owner.accountId, picked[0]!.names],
  );
  // the list's record counter, as inserts through the API keep it (the page strategy reads it)
  await admin.query('update list_schemas set item_count = 10000 where id = $1', [list.id]);
  await admin.query('vacuum analyze list_items');
}, 120_000);
afterAll(async () => {
  await admin.end();
  await t.close();
});

/**
 * The list_items statements one getListItems sent, after a read of the same shape: a shape
 * counted before may bring its page with its count (lists/items/countedPage.ts).
 */
async function statementsOf(
  filters: Record<string, string>,
  orderBy: string,
  page = 3,
): Promise<SentStatement[]> {
  const read = () =>
    call(
      t.app,
      'getListItems',
      { schema_id: list.id, filters, order_by: orderBy, limit: 50, page },
      { key: owner.apiKey },
    );
  expect((await read()).status).toBe(200);
  sent.length = 0;
  const res = await read();
  expect(res.status).toBe(200);
  const statements = [...sent];
  expect(statements.length).toBeGreaterThan(0);
  return statements;
}

/**
 * The plans of every list_items statement one getListItems sent; with `generic`, of those sent
 * under a name the plan Postgres may keep for any value (infra/db/shapeStatements.ts).
 */
async function plansOf(
  filters: Record<string, string>,
  orderBy: string,
  { generic = false, page = 3 } = {},
): Promise<string[]> {
  const plans: string[] = [];
  for (const s of await statementsOf(filters, orderBy, page)) {
    if (generic && !s.name) continue;
    const rows = generic
      ? await genericPlan(s)
      : (await admin.query(`explain ${s.text}`, s.values)).rows;
    plans.push(rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n'));
  }
  return plans;
}

/** The plan made for no value in particular: what a kept plan is. */
async function genericPlan(s: SentStatement): Promise<{ 'QUERY PLAN': string }[]> {
  await admin.query(`prepare kept as ${s.text}`);
  try {
    await admin.query('set plan_cache_mode = force_generic_plan');
    const values = s.values.map((v) => admin.escapeLiteral(String(v))).join(', ');
    return (await admin.query(`explain execute kept(${values})`)).rows;
  } finally {
    await admin.query('reset plan_cache_mode');
    await admin.query('deallocate kept');
  }
}

/** Each scan of list_items in a plan, with the lines under it up to the next node. */
function scansOf(plan: string): string[] {
  const lines = plan.split('\n');
  const scans: string[] = [];
  lines.forEach((line, i) => {
    if (!/Scan.* on list_items/.test(line)) return;
    const rest = lines.slice(i + 1);
    const end = rest.findIndex((l) => /->/.test(l));
    scans.push([line, ...(end < 0 ? rest : rest.slice(0, end))].join('\n'));
  });
  return scans;
}

/** Each scan a range of the list's own entries, or a primary-key probe of one record. */
function expectBoundedScans(plan: string, scans: string[]) {
  for (const scan of scans)
    expect(scan, plan).toMatch(
      /(Index Cond|Recheck Cond): \(\(owner_id = .*list_key = |list_items_pkey\S* .*\n.*Index Cond: \(\(id = /,
    );
}

const SHAPES: [string, Record<string, string>, string][] = [
  ['one equality (0.1 %)', { city: 'c10' }, 'score,asc'],
  ['one range (50 %)', { score: '<,500' }, 'day,desc'],
  ['one equality (14 %), filtered first', { tag: 't3' }, 'score,asc'],
  ['equality + range', { tag: 't3', score: '>,100' }, 'price,asc'],
  ['range + range (10 % and all)', { score: '>,900', day: '>=,2024-01-01' }, 'day,asc'],
  ['range + range (1 %)', { score: '<,10', price: '<,250' }, 'created_at,desc'],
  ['like + range', { city: 'like,%7%', price: '>=,100' }, 'score,desc'],
  ['three combined', { tag: 't1', score: '<,500', day: '>=,2025-01-01' }, 'price,desc'],
  ['equality + equality', { city: 'c20', tag: 't6' }, 'score,asc'],
];

describe('getListItems reads only the list it is asked about', () => {
  it.each(SHAPES)('%s: every scan of list_items is bounded by the list', async (_, f, order) => {
    const plans = await plansOf(f, order);
    for (const plan of plans) {
      expect(plan).not.toMatch(/Seq Scan on list_items/);
      const scans = scansOf(plan);
      expect(scans.length).toBeGreaterThan(0);
      expectBoundedScans(plan, scans);
    }
  });

  it.each(SHAPES)(
    '%s: a plan kept for any value (a statement sent under its shape) is bounded too',
    async (name, f, order) => {
      const plans = await plansOf(f, order, { generic: true });
      // one condition by equality or a range: its count, and its page (filtered first, or the
      // walk kept under the list's name: 'a walked page kept for its list', below); the 0.1 %
      // equality has no page 3. Behind PgBouncer (PG_PREPARED_STATEMENTS=off) nothing is named.
      const named = { 'one equality (0.1 %)': 1, 'one range (50 %)': 2 } as Record<string, number>;
      const expected = named[name] ?? (name.endsWith('filtered first') ? 1 : 0);
      expect(plans.length).toBe(process.env.TEST_PGBOUNCER_PORT ? 0 : expected);
      for (const plan of plans) {
        expect(plan).not.toMatch(/Seq Scan on list_items/);
        expectBoundedScans(plan, scansOf(plan));
      }
    },
  );

  it.each(SHAPES.filter(([name]) => name !== 'equality + equality'))(
    '%s: the total is counted inside the list index entries alone',
    async (_, f, order) => {
      const plans = await plansOf(f, order);
      const counts = plans.filter((p) => /(?<!Hash)Aggregate/.test(p));
      expect(counts.length).toBeGreaterThan(0);
      for (const plan of counts) {
        // with its page (countedPage.ts): the matches scanned once, then the page's records
        const [scan, ...probes] = plan.includes('CTE m') ? scansOf(plan) : [plan];
        expect(scan).toMatch(/Index Only Scan/);
        expect(scan).not.toMatch(/Bitmap Heap Scan on list_items|Index Scan using list_items/);
        for (const probe of probes) expect(probe).toMatch(/Index Scan using list_items_pkey/);
      }
    },
  );
});

describe("a list's records as Postgres estimates them in a shared table", () => {
  it('takes the list for what decides, not the owner and the list as two chances', async () => {
    // migration 0018: list_key decides owner_id. Without it Postgres multiplied the two
    // shares and expected a tenth of the list's 10,000 records.
    const { rows } = await admin.query(
      `explain (format json) select id from list_items
       where owner_id = $1 and list_key = hashtextextended($2, 0)`,
      [owner.accountId, list.id],
    );
    const estimate = (rows[0]['QUERY PLAN'] as [{ Plan: { 'Plan Rows': number } }])[0].Plan;
    expect(estimate['Plan Rows']).toBeGreaterThan(5_000);
    expect(estimate['Plan Rows']).toBeLessThan(20_000);
  });
});

describe('a range read has one plan for any bound', () => {
  /** How many of `runs` executions of the statement Postgres ran on its kept (generic) plan. */
  /**
   * `s` run once as the service's named statements run (shapeStatements.ts): on a session that
   * keeps one plan for any value. The plan as it ran.
   */
  async function keptPlanRun(s: SentStatement): Promise<string> {
    await admin.query(`prepare ranged as ${s.text}`);
    try {
      await admin.query('set plan_cache_mode = force_generic_plan');
      const values = s.values.map((v) => admin.escapeLiteral(String(v))).join(', ');
      const { rows } = await admin.query<{ 'QUERY PLAN': string }>(
        `explain (analyze, costs off, timing off, summary off) execute ranged(${values})`,
      );
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    } finally {
      await admin.query('reset plan_cache_mode');
      await admin.query('deallocate ranged');
    }
  }

  it('plans a range filtered first for any bound, to find the matches in their own index', async () => {
    // 3 % of the list, read by filtering first. The sort's index includes the condition's
    // column, and a plan made for any bound read the whole list in it (on the sweep's table
    // among other lists: 150–230 ms a page at 0.1 %); the page's matches come from `n1`'s.
    // The plan kept on the list's partition (listRecords.ts); on the partitioned parent it
    // priced each partition's ordered walk as if all would run, and sorted the whole list.
    // the plan kept for any bound, or behind PgBouncer (nothing named) the one for this bound
    const plans = await plansOf({ score: '<,30' }, 'day,asc', {
      generic: !process.env.TEST_PGBOUNCER_PORT,
    });
    const pages = plans.filter((p) => !/(?<!Hash)Aggregate/.test(p));
    expect(pages).toHaveLength(1);
    for (const plan of pages) {
      const found = scansOf(plan).filter((scan) => !/list_items_pkey|Subquery Scan/.test(scan));
      expect(found, plan).toHaveLength(1);
      expect(found[0], plan).toMatch(/Index Cond: .*\(n1 < /);
    }
  });

  it('reads the rows of a few matches as it finds them in their own index, for any bound', async () => {
    // 60 of the list's 10,000 records, at most twice the page: filtered first in one pass, the
    // rows read from the condition's index, none looked up again by key (pageStrategy.ts)
    const plans = await plansOf({ score: '<,6' }, 'day,asc', {
      generic: !process.env.TEST_PGBOUNCER_PORT,
      page: 1,
    });
    const pages = plans.filter((p) => !/(?<!Hash)Aggregate/.test(p));
    expect(pages).toHaveLength(1);
    const found = scansOf(pages[0]!).filter((scan) => !/Subquery Scan/.test(scan));
    expect(found, pages[0]).toHaveLength(1);
    expect(found[0], pages[0]).toMatch(/Index Scan using \S*n1\S* on list_items/);
    expect(found[0], pages[0]).toMatch(/Index Cond: .*\(n1 < /);
  });

  it("hides the bound from the planner; the plan kept for any bound reads the list's one partition", async () => {
    // the count and the filter-first page (named; unnamed behind PgBouncer, written the same)
    const statements = await statementsOf({ score: '<,50' }, 'price,asc');
    expect(statements).toHaveLength(2);
    for (const s of statements) {
      expect(s.text).toMatch(/"n1" < \(select \$\d+::numeric\)/);
      // the list's partition named in the statement (listRecords.ts): a plan of one table, no
      // partitions to set aside each time it runs
      expect(s.text).toMatch(/from "list_items_p\d+" as "list_items"/);
      const plan = await keptPlanRun(s);
      expect(plan).not.toMatch(/Append|Subplans Removed/);
      expect(new Set(plan.match(/list_items_p\d+/g))).toHaveProperty('size', 1);
    }
  });

  it('sends the statements named by their shape to sessions that keep one plan for any value', async () => {
    const [row] = await queryShapeRows<{ mode: string }>(
      t.db,
      sql`select current_setting('plan_cache_mode') as mode`,
    );
    // behind PgBouncer nothing is named, and the pool sets no session parameter
    expect(row!.mode).toBe(process.env.TEST_PGBOUNCER_PORT ? 'auto' : 'force_generic_plan');
  });
});

describe('a walked page kept for its list', () => {
  /** The walked page of one read, and the plan Postgres keeps for it (for any value). */
  async function keptWalk(filters: Record<string, string>, orderBy: string) {
    const walks = (await statementsOf(filters, orderBy)).filter((s) => /coalesce\(/.test(s.text));
    expect(walks).toHaveLength(1);
    const walk = walks[0]!;
    const plan = (await genericPlan(walk)).map((r) => r['QUERY PLAN']).join('\n');
    return { walk, plan };
  }

  it("walks the order's index for any bound, the list's id written into its text", async () => {
    // half the list matches: the page strategy walks `day`'s index, and so does the plan kept
    // for any bound, the condition tested on the walk
    const { walk, plan } = await keptWalk({ score: '<,500' }, 'day,desc');
    expect(Boolean(walk.name)).toBe(!process.env.TEST_PGBOUNCER_PORT);
    // the statistics then price this list, not the partition's average list (listScope.ts)
    expect(walk.text).toContain(`hashtextextended('${list.id}'::text, 0)`);
    expect(plan).toMatch(/Index Scan Backward using list_items\S*d1\S* on list_items/);
    expect(plan).toMatch(/Filter: COALESCE\(\(n1 < \$\d+\), false\)/);
    expect(plan).not.toMatch(/Sort Key/);
  });

  it('walks for a value the statistics have never seen, matching half the list', async () => {
    await admin.query(
      `update list_items set t1 = 'hot', data = data || '{"city":"hot"}'
       where owner_id = $1 and list_key = hashtextextended($2, 0) and (substr(id, 2)::int / 10) % 2 = 0`,
      [owner.accountId, list.id],
    );
    // the statistics expect a thousandth for any city; a plan made for this list's share of
    // them sorted the list's records found by the city instead of walking the order
    const { plan } = await keptWalk({ city: 'hot' }, 'day,asc');
    expect(plan).toMatch(/Index Scan using list_items\S*d1\S* on list_items/);
    expect(plan).toMatch(/Filter: COALESCE\(\(t1 = \$\d+\), false\)/);
    expect(plan).not.toMatch(/Sort Key/);
  });
});

describe('a pair of ranges totalled from the band counts', () => {
  it('reads only the list, its counts and its changes (bandPairs.ts)', async () => {
    // a server whose reads take the list's band counts whatever its size (keptCounts.ts)
    const kept = await startTestApp({
      database: t.database,
      redis: false,
      env: { LIST_CACHE_ROWS: '0' },
      keptCounts: { minRecords: 0, minMatches: 0, minShare: 0 },
    });
    try {
      const read = async (filters: Record<string, string>) => {
        const res = await call(
          kept.app,
          'getListItems',
          { schema_id: list.id, filters, order_by: 'price,asc', limit: 50 },
          { key: owner.apiKey },
        );
        expect(res.status).toBe(200);
        return res.body.meta.total as number;
      };
      // a single range on each takes its slot's counts, in the background
      await read({ score: '<,400' });
      await read({ day: '<,2024-06-01' });
      // score's slot and day's (bandCounts.ts, BANDED_SLOTS)
      for (const slot of [BANDED_SLOTS.n1!, BANDED_SLOTS.d1!])
        await waitForKeptCounts(() =>
          keptCountsRow(t.db, owner, list.id, { table: 'list_band_counts', columns: 'slot', slot }),
        );
      // counted first (81 % of the list: its shape's last total), then from the counts
      const pair = (score: number) => ({ score: `>,${score}`, day: '>=,2024-03-01' });
      const counted = await read(pair(100));
      expect(counted).toBeGreaterThan(5_000);
      sent.length = 0;
      const total = await read(pair(101));
      const statements = [...sent];
      const fromCounts = statements.find((s) => /list_band_counts/.test(s.text));
      expect(fromCounts, 'the total read from the band counts').toBeDefined();
      const [{ n }] = (
        await admin.query<{ n: string }>(
          `select count(*) as n from list_items where owner_id = $1
             and list_key = hashtextextended($2, 0) and n1 > 101 and d1 >= '2024-03-01'`,
          [owner.accountId, list.id],
        )
      ).rows as [{ n: string }];
      expect(total).toBe(Number(n));
      const { rows } = await admin.query<{ 'QUERY PLAN': string }>(
        `explain ${fromCounts!.text}`,
        fromCounts!.values,
      );
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan).not.toMatch(/Seq Scan on list_items/);
      const scans = scansOf(plan);
      // the band, the records the pair leaves out, and the records the writes since touched
      expect(scans.length).toBeGreaterThanOrEqual(2);
      expectBoundedScans(plan, scans);
    } finally {
      await kept.close();
    }
  });
});
