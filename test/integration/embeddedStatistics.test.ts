import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbedded, queryRows, type Database } from '../../src/infra/db/client.js';
import { analyzeGrownTables } from '../../src/infra/db/embeddedStatistics.js';
import { migrateEmbedded } from '../../src/infra/db/migrate.js';
import { makeTenant } from '../helpers/factories.js';
import { makeList } from '../helpers/lists.js';
import { listKeyInsert } from '../../src/lists/items/listKeyInsert.js';

// PGlite has no autovacuum: the background loop analyses the tables that grew.
const dataDir = mkdtempSync(path.join(tmpdir(), 'lk-embedded-stats-'));
let db: Database;
let close: () => Promise<void>;

beforeAll(async () => {
  const handle = await openEmbedded(dataDir);
  await migrateEmbedded(handle.pglite);
  db = handle.db;
  close = handle.close;
}, 120_000);
afterAll(async () => {
  await close?.();
  rmSync(dataDir, { recursive: true, force: true });
});

const planned = async (table: string) => {
  const [row] = await queryRows<{ reltuples: number }>(
    db,
    sql`select reltuples::float8 as reltuples from pg_class where relname = ${table}`,
  );
  return row!.reltuples;
};

describe('analyzeGrownTables (embedded PGlite)', () => {
  it('analyses a table once it has doubled and grown by a megabyte, and not again until then', async () => {
    await analyzeGrownTables(db); // whatever the migrations left
    expect(await analyzeGrownTables(db)).toEqual([]);
    const owner = await makeTenant(db);
    const list = await makeList(db, owner, [{ slug: 'a', type: 'string' }]);
    const key = await listKeyInsert(db, list.id);
    const add = (n: number) =>
      db.execute(
        sql`insert into list_items (id, schema_id, owner_id, data${key.column})
            select gen_random_uuid()::text, ${list.id}, ${owner.accountId},
                   jsonb_build_object('a', repeat('x', 500))${key.value}
            from generate_series(1, ${n})`,
      );
    await add(1); // the list's partition of list_items (migration 0021)
    const [{ partition } = { partition: '' }] = await queryRows<{ partition: string }>(
      db,
      sql`select tableoid::regclass::text as partition from list_items limit 1`,
    );
    expect(partition).toMatch(/^list_items_p\d+$/);
    await add(100); // a few pages: below the megabyte
    expect(await analyzeGrownTables(db)).not.toContain(partition);

    await add(4_000);
    expect(await analyzeGrownTables(db)).toContain(partition);
    expect(await planned(partition)).toBeGreaterThan(3_000);
    expect(await analyzeGrownTables(db)).not.toContain(partition);

    await add(1_000); // +25 %: not doubled yet
    expect(await analyzeGrownTables(db)).not.toContain(partition);
  });
});
