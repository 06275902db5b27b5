import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { migratePostgres, migrationsFolder } from '../../src/infra/db/migrate.js';
import { databaseUrl, serverUrls, TEST_CITUS_URL, TEST_POSTGRES_URL } from './env.js';

const TEMPLATE_LOCK_ID = 0x4c4b_7e57;

/** Name of the migrated template: it changes whenever a migration does. */
export function templateName(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(migrationsFolder).sort()) {
    if (file.endsWith('.sql'))
      hash.update(file).update(readFileSync(path.join(migrationsFolder, file)));
  }
  hash.update(readFileSync(path.join(migrationsFolder, 'meta/_journal.json')));
  // on Citus the placement step after the migrations shapes the schema too
  if (TEST_CITUS_URL) {
    const db = path.join(path.dirname(migrationsFolder), 'src/infra/db');
    for (const file of readdirSync(db).sort()) {
      if (/^(citus.*|distribution)\.ts$/.test(file)) hash.update(readFileSync(path.join(db, file)));
    }
  }
  return `lk_tpl_${hash.digest('hex').slice(0, 12)}`;
}

export async function withAdmin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Citus keeps background workers (its maintenance daemon) connected to every database with
 * the extension, and a database with sessions cannot be a template or be renamed. They only
 * come back when a session opens that database, which nothing does to a template.
 */
export async function disconnectAll(name: string): Promise<void> {
  for (const url of serverUrls()) {
    await withAdmin(url, (c) =>
      c.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      ),
    );
  }
}

/**
 * A Citus database: the same name on the coordinator and both workers, the extension in
 * each, the workers added (what `scripts/citus/cluster.sh createdb` does).
 */
async function createCitusDatabase(name: string): Promise<void> {
  const [coordinator, ...workers] = serverUrls();
  for (const url of serverUrls()) {
    await withAdmin(url, async (c) => {
      await c.query(`drop database if exists ${name} with (force)`);
      await c.query(`create database ${name}`);
    });
    const inDb = new URL(url);
    inDb.pathname = `/${name}`;
    await withAdmin(inDb.toString(), (c) => c.query('create extension citus'));
  }
  const inDb = new URL(coordinator!);
  inDb.pathname = `/${name}`;
  await withAdmin(inDb.toString(), async (c) => {
    const host = inDb.hostname;
    await c.query('select citus_set_coordinator_host($1, $2)', [host, Number(inDb.port)]);
    for (const w of workers)
      await c.query('select citus_add_node($1, $2)', [host, Number(new URL(w).port)]);
  });
}

/** Migrates the template once (immich's way); test files clone it with CREATE DATABASE … TEMPLATE. */
export async function ensureTemplate(): Promise<string> {
  const name = templateName();
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK_ID]);
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) {
      const building = `${name}_building`;
      if (TEST_CITUS_URL) {
        await createCitusDatabase(building);
      } else {
        await admin.query(`drop database if exists ${building} with (force)`);
        await admin.query(`create database ${building}`);
      }
      await migratePostgres(databaseUrl(building));
      // Renamed only when complete, so a crash never leaves a half-migrated template behind.
      // On Citus the workers' copies are renamed first: the coordinator's name says done.
      await disconnectAll(building);
      for (const url of serverUrls().reverse()) {
        await withAdmin(url, async (c) => {
          await c.query(`drop database if exists ${name} with (force)`);
          await c.query(`alter database ${building} rename to ${name}`);
        });
      }
    }
    if (TEST_CITUS_URL) await disconnectAll(name);
    await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK_ID]);
  } finally {
    await admin.end();
  }
  return name;
}
