import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { migratePostgres, migrationsFolder } from '../../src/infra/db/migrate.js';
import { databaseUrl, TEST_POSTGRES_URL } from './env.js';

const TEMPLATE_LOCK_ID = 0x4c4b_7e57;

/** Name of the migrated template: it changes whenever a migration does. */
export function templateName(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(migrationsFolder).sort()) {
    if (file.endsWith('.sql'))
      hash.update(file).update(readFileSync(path.join(migrationsFolder, file)));
  }
  hash.update(readFileSync(path.join(migrationsFolder, 'meta/_journal.json')));
  return `lk_tpl_${hash.digest('hex').slice(0, 12)}`;
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
      await admin.query(`drop database if exists ${building} with (force)`);
      await admin.query(`create database ${building}`);
      await migratePostgres(databaseUrl(building));
      // Renamed only when complete, so a crash never leaves a half-migrated template behind.
      await admin.query(`alter database ${building} rename to ${name}`);
    }
    await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK_ID]);
  } finally {
    await admin.end();
  }
  return name;
}
