import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { connectPostgres, openEmbedded, type DatabaseHandle } from './client.js';
import { migrateEmbedded, migratePostgres } from './migrate.js';

/** Opens the configured database with every migration applied: Postgres, or embedded PGlite. */
export async function openMigratedDatabase(config: Config, log: Logger): Promise<DatabaseHandle> {
  if (config.databaseUrl) {
    await migratePostgres(config.databaseUrl);
    return connectPostgres(config.databaseUrl, log);
  }
  const embedded = await openEmbedded(config.dataDir);
  await migrateEmbedded(embedded.pglite);
  return embedded;
}
