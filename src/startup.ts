import { ConfigError, loadConfig, type Config } from './config.js';
import { loadOrCreateEncryptionKey } from './embedded/encryptionKey.js';

/**
 * Reads the environment for a process entry. A missing or invalid variable stops the
 * process with one clear line per problem, before anything listens.
 */
export function loadConfigOrExit(): Config {
  try {
    const config = loadConfig();
    if (!config.databaseUrl && !config.encryptionKey) {
      config.encryptionKey = loadOrCreateEncryptionKey(config.dataDir);
    }
    return config;
  } catch (err) {
    if (err instanceof ConfigError) {
      for (const line of err.problems) process.stderr.write(`listkeeper: ${line}\n`);
      process.exit(78);
    }
    throw err;
  }
}
