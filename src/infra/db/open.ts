import { mkdirSync } from 'node:fs';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import { connectPostgres, openEmbedded, sessionOptionsOf, type DatabaseHandle } from './client.js';
import { assertDurable } from './durability.js';
import { lockEmbeddedDatabase } from './embeddedLock.js';
import { migrateEmbedded, migratePostgres, migrationsFolder } from './migrate.js';

/** Opens the configured database with every migration applied: Postgres, or embedded PGlite. */
export async function openMigratedDatabase(config: Config, log: Logger): Promise<DatabaseHandle> {
  if (config.databaseUrl) {
    const handle = connectPostgres(config.databaseUrl, log, sessionOptionsOf(config.postgres));
    try {
      // Before anything is written: acknowledged writes must survive a crash.
      await assertDurable(handle.db);
      await migratePostgres(config.postgres.migrationUrl ?? config.databaseUrl, migrationsFolder, {
        citusDistribution: config.postgres.citusDistribution,
      });
    } catch (err) {
      await handle.close();
      throw err;
    }
    return handle;
  }
  mkdirSync(config.dataDir, { recursive: true });
  const unlock = lockEmbeddedDatabase(config.dataDir);
  try {
    const embedded = await openEmbedded(config.dataDir);
    await migrateEmbedded(embedded.pglite);
    return {
      ...embedded,
      async close() {
        try {
          await embedded.close();
        } finally {
          unlock();
        }
      },
    };
  } catch (err) {
    unlock();
    throw err;
  }
}
