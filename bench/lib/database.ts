/** The bench's own databases on BENCH_DATABASE_URL's server. */
import pg from 'pg';
import { migratePostgres } from '../../src/infra/db/migrate.js';

/** The Postgres server the bench makes its databases on. */
export const BENCH_SERVER =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** One statement on the server's maintenance database (create, drop, look up databases). */
export async function admin(serverUrl: string, query: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await client.query(query);
  } finally {
    await client.end();
  }
}

export function databaseUrl(serverUrl: string, name: string) {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A migrated database `name`: made anew unless `reuse` and it exists. `created` says whether
 * its data must be loaded.
 */
export async function benchDatabase(serverUrl: string, name: string, reuse: boolean) {
  const exists = (await admin(serverUrl, `select 1 from pg_database where datname = '${name}'`))
    .rowCount;
  const url = databaseUrl(serverUrl, name);
  const created = !reuse || !exists;
  if (created) {
    await admin(serverUrl, `drop database if exists ${name} with (force)`);
    await admin(serverUrl, `create database ${name}`);
    await migratePostgres(url);
  }
  return { url, created };
}

/**
 * A connection for a bulk load into list_items: commits not waiting for the disk, and the
 * table's secondary indexes dropped, since entering rows into them one by one is what makes a
 * bulk load slow. `rebuildIndexes` makes them again from their own definitions (pg_indexes)
 * once the rows are in.
 */
export async function bulkLoadClient(url: string, maintenanceWorkMem: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(
    `set synchronous_commit = off; set maintenance_work_mem = '${maintenanceWorkMem}'`,
  );
  const indexes = (
    await client.query<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes
       where tablename = 'list_items' and indexname <> 'list_items_pkey'`,
    )
  ).rows;
  for (const { indexname } of indexes) await client.query(`drop index "${indexname}"`);
  return {
    client,
    async rebuildIndexes() {
      // a partitioned index's definition reads `ON ONLY list_items`, which would make it for the
      // parent alone (migration 0021): made here for every partition
      for (const { indexdef } of indexes) await client.query(indexdef.replace(' ON ONLY ', ' ON '));
    },
  };
}
