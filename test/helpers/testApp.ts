import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import type { AppDeps } from '../../src/appDeps.js';
import { loadConfig, type Config } from '../../src/config.js';
import { connectPostgres, type Database } from '../../src/infra/db/client.js';
import { createRuntime } from '../../src/runtime.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { TEST_REDIS_URL } from './env.js';
import type { KeptCountOptions } from '../../src/lists/items/keptCounts.js';

export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');

export interface TestAppOptions {
  /** extra environment, as an operator would set it */
  env?: Record<string, string>;
  /** false: run without REDIS_URL (in-process limiter) */
  redis?: boolean;
  clock?: () => Date;
  /** reuse a database (a second instance on the same data) */
  database?: TestDatabase;
  /** share Redis keys with another app (two instances of one deployment) */
  redisPrefix?: string;
  /** the least total a new range bound starts from (0: any, for small lists) */
  neighbourMinTotal?: number;
  /** when a list's band and value counts answer a read (keptCounts.ts); tests set them low */
  keptCounts?: Partial<KeptCountOptions>;
}

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  db: Database;
  database: TestDatabase;
  config: Config;
  /** every log line the app wrote, as text */
  logs: string[];
  close(): Promise<void>;
}

/** A real app on a fresh Postgres database and real Redis (a unique key prefix per app). */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const ownsDatabase = !options.database;
  const config = loadConfig({
    DATABASE_URL: database.url,
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    BASE_URL: 'http://api.test',
    LOG_LEVEL: 'info',
    ...(options.redis === false ? {} : { REDIS_URL: TEST_REDIS_URL }),
    ...options.env,
  });
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(chunk.toString('utf8'));
      if (process.env.LK_TEST_PRINT_ERRORS && /"level":(40|50|60)/.test(chunk.toString('utf8')))
        process.stderr.write(chunk);
      done();
    },
  });
  const runtime = createRuntime(
    config,
    { ...database.handle, close: async () => undefined },
    pino({ level: 'silent' }),
    {
      redisPrefix: options.redisPrefix ?? `lk_test:${randomBytes(6).toString('hex')}:`,
      clock: options.clock,
      neighbourMinTotal: options.neighbourMinTotal,
      keptCounts: options.keptCounts,
    },
  );
  const app = buildApp(runtime.deps, { logStream });
  await app.ready();
  if (config.redisUrl) await waitForRedis(runtime.deps);
  return {
    app,
    deps: runtime.deps,
    db: database.handle.db,
    database,
    config,
    logs,
    async close() {
      await app.close();
      await runtime.close();
      if (ownsDatabase) await database.drop();
    },
  };
}

async function waitForRedis(deps: AppDeps): Promise<void> {
  for (let i = 0; i < 100 && deps.redis?.status !== 'ready'; i++) {
    await new Promise((r) => setTimeout(r, 20));
  }
  // the key cache subscription comes up right after; give it a moment
  await new Promise((r) => setTimeout(r, 30));
}

/**
 * A second app beside `t` (its config, Redis keys under `redisScope`) whose Postgres is
 * `databaseUrl`: one that does not answer, or a database that is not there. Close it after.
 */
export function appOnOtherPostgres(t: TestApp, databaseUrl: string, redisScope = 'down') {
  const handle = connectPostgres(databaseUrl, pino({ level: 'silent' }));
  const runtime = createRuntime(t.config, handle, pino({ level: 'silent' }), {
    redisPrefix: `${t.deps.redisPrefix}${redisScope}:`,
  });
  const app = buildApp(runtime.deps, { logStream: { write: () => undefined } });
  return {
    app,
    async close() {
      await app.close();
      await runtime.close();
    },
  };
}

/** What a CLI run next to the test app `t` is given: its database, the test key and Redis. */
export function cliEnvBeside(t: { database: { url: string } }): Record<string, string> {
  return {
    DATABASE_URL: t.database.url,
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    REDIS_URL: TEST_REDIS_URL,
  };
}
