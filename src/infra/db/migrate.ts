import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { projectRoot } from '../../shared/projectRoot.js';
import { distributeOnCitus, type CitusDistributionMode } from './citusDistribution.js';
import {
  ownerKeysPending,
  prepareOwnerKeys,
  refreshStatistics,
  validateForeignKeys,
} from './ownerKeys.js';
import { prebuildIndexes, type RunSql } from './onlineIndexes.js';

export const migrationsFolder = path.join(projectRoot(import.meta.url), 'migrations');

/** Arbitrary constant: the advisory lock every instance takes before migrating. */
const MIGRATION_LOCK_ID = 0x4c4b_0001;

/**
 * Applies pending migrations on one dedicated connection under a session advisory lock:
 * drizzle's migrator takes no lock, and several instances may start at once. Work that would
 * hold a long lock inside the migrator's one transaction runs outside it, before (ownerKeys.ts)
 * and after (foreign keys added NOT VALID are validated). On a Citus database the tables are
 * then placed, as `citusDistribution` says (CITUS_DISTRIBUTION).
 */
export async function migratePostgres(
  url: string,
  folder = migrationsFolder,
  options: { citusDistribution?: CitusDistributionMode } = {},
): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      const run: RunSql = (text, params) => client.query(text, params);
      const filled = await prepareOwnerKeys(run, folder);
      await prebuildIndexes(run, folder);
      await migratePg(drizzlePg({ client }), { migrationsFolder: folder });
      await validateForeignKeys(run);
      if (filled) await refreshStatistics(run, true);
      await distributeOnCitus(run, options.citusDistribution);
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
  const run: RunSql = (text, params) => pglite.query(text, params);
  // read before: only a start that applies 0012 to older data needs fresh statistics
  const filling = await ownerKeysPending(run);
  await migratePglite(drizzlePglite({ client: pglite }), { migrationsFolder });
  await validateForeignKeys(run);
  if (filling) await refreshStatistics(run, false);
}

/**
 * A copy of the migrations folder that ends at migration `last` (its index), for tests and
 * benchmarks of the migrations after it: a database migrated with it is one an older version
 * left behind.
 */
export function migrationsFolderUpTo(last: number): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'lk-migrations-'));
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalPath = path.join(folder, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx <= last);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}
