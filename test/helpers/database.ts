import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { connectPostgres, type DatabaseHandle } from '../../src/infra/db/client.js';
import { migratePostgres } from '../../src/infra/db/migrate.js';
import { databaseUrl, serverUrls, TEST_CITUS_URL, TEST_POSTGRES_URL } from './env.js';
import { disconnectAll, ensureTemplate, withAdmin } from './templateDatabase.js';

export interface TestDatabase {
  name: string;
  url: string;
  handle: DatabaseHandle;
  drop(): Promise<void>;
}

/** Runs `fn` on every node a test database lives on (one server, or the Citus nodes). */
async function onEveryNode(fn: (client: pg.Client) => Promise<unknown>): Promise<void> {
  for (const url of serverUrls()) await withAdmin(url, fn);
}

/** The URL through the PgBouncer of a TEST_VIA_PGBOUNCER=1 run (globalSetup.ts), if any. */
function viaPgbouncer(url: string): string | undefined {
  const port = process.env.TEST_PGBOUNCER_PORT;
  if (!port) return undefined;
  const through = new URL(url);
  through.port = port;
  return through.toString();
}

/**
 * A fresh database for one test file, cloned from the migrated template; on Citus
 * (TEST_CITUS_URL) the template's copy on every node is cloned under the same name, which
 * makes a distributed database like the template (the metadata names nodes, not databases).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = process.env.LK_TEST_TEMPLATE ?? (await ensureTemplate());
  const name = `lk_t_${randomBytes(6).toString('hex')}`;
  await onEveryNode(async (client) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`create database ${name} template ${template}`);
        return;
      } catch (err) {
        // Two clones of one template at the same instant can collide; try again.
        if (attempt >= 20 || !/being accessed by other users/.test(String(err))) throw err;
        // on Citus, a daemon may still be attached to the template
        if (TEST_CITUS_URL && attempt >= 3) await disconnectAll(template);
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  });
  return testDatabaseAt(name);
}

/**
 * A fresh database whose default collation is an ICU locale's (`de-DE`, say), for what must
 * hold whatever order the database sorts text in. A clone keeps its template's collation, so
 * this one is made from template0 and migrated on its own (a few seconds). One Postgres only:
 * the Citus runs leave out the files that use it.
 */
export async function createCollatedTestDatabase(icuLocale: string): Promise<TestDatabase> {
  if (!/^[a-zA-Z-]+$/.test(icuLocale)) throw new Error(`not a locale name: ${icuLocale}`);
  const name = `lk_t_${randomBytes(6).toString('hex')}`;
  await withAdmin(TEST_POSTGRES_URL, (client) =>
    client.query(
      `create database ${name} template template0
         locale_provider icu icu_locale '${icuLocale}' locale 'C.UTF-8'`,
    ),
  );
  await migratePostgres(databaseUrl(name));
  return testDatabaseAt(name);
}

/** The database `name` as a test uses it: its URL, a connection, and how to drop it. */
function testDatabaseAt(name: string): TestDatabase {
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
      await onEveryNode(async (client) => {
        for (let attempt = 0; ; attempt++) {
          try {
            await client.query(`drop database if exists ${name} with (force)`);
            return;
          } catch (err) {
            // on Citus, another node's daemon may have reconnected meanwhile
            if (attempt >= 10 || !/being accessed by other users/.test(String(err))) throw err;
            await disconnectAll(name);
            await new Promise((r) => setTimeout(r, 200));
          }
        }
      });
    },
  };
}
