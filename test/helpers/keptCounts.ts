import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { queryRows, type Database } from '../../src/infra/db/client.js';
import type { KeptCountOptions } from '../../src/lists/items/keptCounts.js';
import { call } from './call.js';
import { makeTenant, type Tenant } from './factories.js';
import { startTestApp, type TestApp } from './testApp.js';

/**
 * For the tests of a list's kept counts (band and value counts): sixty writes at once through
 * the record methods — adds, updates and deletes of `ids`, data from `values` — while the
 * counts are dropped and taken again by `recount`, whose snapshot then decides which writes
 * they hold. Resolves once every write has answered with a success.
 */
export async function writeWhileRecounting(
  app: TestApp,
  owner: Tenant,
  listId: string,
  ids: readonly string[],
  values: (i: number) => Record<string, unknown>,
  recount: { table: 'list_band_counts' | 'list_value_counts'; run: () => Promise<void> },
): Promise<void> {
  const api = (method: string, params: Record<string, unknown>) =>
    call(app.app, method, params, { key: owner.apiKey });
  const writes = Array.from({ length: 60 }, (_, i) => {
    if (i % 3 === 0) return api('addListItem', { schema_id: listId, data: values(i + 3000) });
    if (i % 3 === 1)
      return api('updateListItem', { schema_id: listId, item_id: ids[i], data: values(i + 4000) });
    return api('deleteListItem', { schema_id: listId, item_id: ids[i] });
  });
  await app.db.execute(sql`delete from ${sql.identifier(recount.table)}
    where owner_id = ${owner.accountId} and list_key = hashtextextended(${listId}::text, 0)`);
  const [answers] = await Promise.all([Promise.all(writes), recount.run()]);
  expect(answers.every((r) => r.status < 300)).toBe(true);
}

/**
 * Adds one to every count a slot keeps (a band's running total, a value's count), so a total
 * read from the counts tells itself from a count of the records.
 */
export async function addOneToEveryCount(
  db: Database,
  owner: Tenant,
  listId: string,
  { table, column, slot }: { table: string; column: string; slot: number },
) {
  const counts = sql.identifier(column);
  await db.execute(sql`update ${sql.identifier(table)}
    set ${counts} = array(select c + 1 from unnest(${counts}) c)
    where owner_id = ${owner.accountId} and list_key = hashtextextended(${listId}::text, 0)
      and slot = ${slot}`);
}

/**
 * The three servers the kept counts' tests compare on one database: `t` reads the counts
 * with `options`, `eager` with them and brings the counts forward after any write, and
 * `gated` with `gatedOptions` (the rules that keep them from answering, where tested).
 */
export async function startKeptCountApps(
  options: Partial<KeptCountOptions>,
  gatedOptions: Partial<KeptCountOptions>,
) {
  const env = { RATE_LIMIT_PER_MINUTE: '1000000' };
  const t = await startTestApp({ env, keptCounts: options });
  const owner = await makeTenant(t.db);
  const eager = await startTestApp({
    database: t.database,
    env,
    keptCounts: { ...options, recountAfter: 0 },
  });
  const gated = await startTestApp({ database: t.database, env, keptCounts: gatedOptions });
  return {
    t,
    eager,
    gated,
    owner,
    async close() {
      await gated.close();
      await eager.close();
      await t.close();
    },
  };
}

/** A slot's kept counts as last taken (`columns` of its row), or undefined before any. */
export async function keptCountsRow<T extends { snapshot: string }>(
  db: Database,
  owner: Tenant,
  listId: string,
  { table, columns, slot }: { table: string; columns: string; slot: number },
): Promise<T | undefined> {
  const [row] = await queryRows<T>(
    db,
    sql`select snapshot, ${sql.raw(columns)} from ${sql.identifier(table)}
        where owner_id = ${owner.accountId} and list_key = hashtextextended(${listId}::text, 0)
          and slot = ${slot}`,
  );
  return row;
}

/** The row `read` gives once taken after `snapshot` (none: once taken at all). */
export async function waitForKeptCounts<T extends { snapshot: string }>(
  read: () => Promise<T | undefined>,
  snapshot?: string,
): Promise<T> {
  for (let i = 0; ; i++) {
    const row = await read();
    if (row && row.snapshot !== snapshot) return row;
    if (i > 200) throw new Error('the counts were not taken');
    await new Promise((r) => setTimeout(r, 25));
  }
}
