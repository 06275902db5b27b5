import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { connectPostgres, type DatabaseHandle } from '../../src/infra/db/client.js';
import { databaseUrl, TEST_POSTGRES_URL } from './env.js';
import { ensureTemplate } from './templateDatabase.js';

export interface TestDatabase {
  name: string;
  url: string;
  handle: DatabaseHandle;
  drop(): Promise<void>;
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The URL through the PgBouncer of a TEST_VIA_PGBOUNCER=1 run (globalSetup.ts), if any. */
function viaPgbouncer(url: string): string | undefined {
  const port = process.env.TEST_PGBOUNCER_PORT;
  if (!port) return undefined;
  const through = new URL(url);
  through.port = port;
  return through.toString();
}

/** A fresh database for one test file, cloned from the migrated template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = process.env.LK_TEST_TEMPLATE ?? (await ensureTemplate());
  const name = `lk_t_${randomBytes(6).toString('hex')}`;
  await admin(async (client) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`create database ${name} template ${template}`);
        return;
      } catch (err) {
        // Two clones of one template at the same instant can collide; try again.
        if (attempt >= 20 || !/being accessed by other users/.test(String(err))) throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  });
  const url = databaseUrl(name);
  const handle = connectPostgres(viaPgbouncer(url) ?? url, pino({ level: 'silent' }), {
    preparedStatements: !process.env.TEST_PGBOUNCER_PORT,
  });
  return {
    name,
    url,
    handle,
    async drop() {
      await handle.close().catch(() => undefined);
      await admin((client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}
