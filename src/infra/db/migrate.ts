import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

export const migrationsFolder = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../migrations',
);

/** Arbitrary constant: the advisory lock every instance takes before migrating. */
const MIGRATION_LOCK_ID = 0x4c4b_0001;

/**
 * Applies pending migrations on one dedicated connection under a session advisory lock:
 * drizzle's migrator takes no lock, and several instances may start at once.
 */
export async function migratePostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      await migratePg(drizzlePg({ client }), { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    await client.end();
  }
}

/** PGlite is single-process, so no lock is needed. */
export async function migrateEmbedded(pglite: PGlite): Promise<void> {
  // embedded mode only (client.ts, openEmbedded)
  const { drizzle: drizzlePglite } = await import('drizzle-orm/pglite');
  const { migrate: migratePglite } = await import('drizzle-orm/pglite/migrator');
  await migratePglite(drizzlePglite({ client: pglite }), { migrationsFolder });
}
