import type { Config } from '../config.js';
import { ConfigError } from '../config.js';
import type { DatabaseHandle } from '../infra/db/client.js';
import { EmbeddedDatabaseBusyError } from '../infra/db/embeddedLock.js';
import { isDatabaseUnavailable } from '../infra/db/databaseErrors.js';
import { openMigratedDatabase } from '../infra/db/open.js';
import { createLogger } from '../logger.js';
import { OperatorError } from '../operator/operatorError.js';
import { prepareConfig } from '../startup.js';
import { notifyServersOfAccountChange } from './notifyServers.js';
import { parseCommandArgs } from './args.js';
import { EXIT } from './cliExitCodes.js';
import { UsageError, type Command, type CommandContext } from './command.js';
import { describeError } from './describeError.js';
import {
  formatCommandHelp,
  formatError,
  formatHuman,
  formatJson,
  formatWarning,
} from './output.js';

/**
 * Runs one command with its flags (`argv` after the command's two words): checks the flags
 * before anything opens, then reads the configuration, opens the migrated database, runs,
 * and prints the result. Answers the exit code.
 */
export async function runCommand(command: Command, argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseCommandArgs(command, argv);
  } catch (err) {
    if (err instanceof UsageError) return fail(EXIT.usage, err.message);
    throw err;
  }
  if (parsed.help) {
    process.stdout.write(formatCommandHelp(command));
    return EXIT.ok;
  }

  let config: Config;
  try {
    config = prepareConfig();
  } catch (err) {
    if (err instanceof ConfigError) return fail(EXIT.config, err.problems.join('; '));
    throw err;
  }
  const log = createLogger(config.logLevel, 2);

  let database: DatabaseHandle;
  try {
    database = await openMigratedDatabase(config, log);
  } catch (err) {
    if (err instanceof EmbeddedDatabaseBusyError) return fail(EXIT.unavailable, err.message);
    return fail(EXIT.unavailable, `cannot open the database: ${describeError(err)}`);
  }

  const context: CommandContext = {
    db: database.db,
    config,
    log,
    stderr: process.stderr,
    json: parsed.json,
    accountChanged: (accountId) => announceAccountChange(config, accountId),
    stdout: process.stdout,
  };
  try {
    const result = await command.run(context, parsed.flags as never);
    const text = parsed.json ? formatJson(result) : formatHuman(command, result);
    // stdout carried the command's own output: the result must not mix into it
    if (command.usesStdout?.(parsed.flags as never)) process.stderr.write(text);
    else await write(text);
    return EXIT.ok;
  } catch (err) {
    return fail(...classify(command, err));
  } finally {
    await database.close().catch(() => undefined);
  }
}

function classify(command: Command, err: unknown): [number, string] {
  if (err instanceof OperatorError || err instanceof UsageError) return [EXIT.failed, err.message];
  if (isDatabaseUnavailable(err)) {
    return [EXIT.unavailable, `lost the database during '${command.name}': ${describeError(err)}`];
  }
  return [EXIT.failed, `'${command.name}' failed: ${describeError(err)}`];
}

/**
 * Running servers cache keys only while subscribed to Redis, so when Redis cannot be told
 * the change still stands; say what that means instead of failing a change that is saved.
 */
async function announceAccountChange(config: Config, accountId: number): Promise<void> {
  if (!config.redisUrl) return;
  try {
    await notifyServersOfAccountChange(config.redisUrl, accountId);
  } catch (err) {
    process.stderr.write(
      formatWarning(
        `account ${accountId} is changed, but Redis (REDIS_URL) could not be told: ${describeError(err)}; ` +
          'a server still subscribed to Redis may answer from its key cache for up to 60 s',
      ),
    );
  }
}

function fail(code: number, message: string): number {
  process.stderr.write(formatError(message));
  return code;
}

function write(text: string): Promise<void> {
  return new Promise((resolve, reject) =>
    process.stdout.write(text, (err) => (err ? reject(err) : resolve())),
  );
}
