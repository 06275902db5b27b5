import { ConfigError, loadConfig, type Config } from './config.js';
import { loadOrCreateEncryptionKey } from './embedded/encryptionKey.js';

/**
 * The configuration of a process entry (server, migrate, CLI): the environment, plus in
 * embedded mode the encryption key kept in DATA_DIR. Throws ConfigError.
 */
export function prepareConfig(): Config {
  const config = loadConfig();
  if (!config.databaseUrl && !config.encryptionKey) {
    config.encryptionKey = loadOrCreateEncryptionKey(config.dataDir);
  }
  return config;
}

/**
 * Reads the environment for a process entry. A missing or invalid variable stops the
 * process with one clear line per problem, before anything listens.
 */
export function loadConfigOrExit(): Config {
  try {
    return prepareConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      for (const line of err.problems) process.stderr.write(`listkeeper: ${line}\n`);
      process.exit(78);
    }
    throw err;
  }
}
