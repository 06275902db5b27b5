import { mkdirSync } from 'node:fs';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { connectPostgres, openEmbedded, type DatabaseHandle } from './client.js';
import { lockEmbeddedDatabase } from './embeddedLock.js';
import { migrateEmbedded, migratePostgres } from './migrate.js';

/** Opens the configured database with every migration applied: Postgres, or embedded PGlite. */
export async function openMigratedDatabase(config: Config, log: Logger): Promise<DatabaseHandle> {
  if (config.databaseUrl) {
    await migratePostgres(config.databaseUrl);
    return connectPostgres(config.databaseUrl, log);
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
