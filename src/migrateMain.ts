import { openMigratedDatabase } from './infra/db/open.js';
import { createLogger } from './logger.js';
import { loadConfigOrExit } from './startup.js';

/** `npm run migrate`: apply pending migrations (under the advisory lock) and exit. */
const config = loadConfigOrExit();
const log = createLogger(config.logLevel, 2);
openMigratedDatabase(config, log).then(
  async (database) => {
    await database.close();
    log.info('migrations applied');
  },
  (err: unknown) => {
    process.stderr.write(
      `listkeeper: migration failed: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exit(1);
  },
);
