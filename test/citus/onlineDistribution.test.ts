import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { uuidv7 } from 'uuidv7';
import { afterAll, describe, expect, it } from 'vitest';
import { DISTRIBUTED_TABLES, REFERENCE_TABLES } from '../../src/infra/db/distribution.js';
import { migratePostgres, migrationsFolder } from '../../src/infra/db/migrate.js';
import { databaseUrl, serverUrls } from '../helpers/env.js';
import { withAdmin } from '../helpers/templateDatabase.js';

/**
 * CITUS_DISTRIBUTION=online on a database that already holds data and keeps being written
 * (run only with TEST_CITUS_URL, vitest.config.ts): a database migrated on the coordinator as
 * a plain Postgres, records in it, then `citus` placed and the placement step run while a
 * writer adds records all along. Every write succeeds (how long they wait is measured by
 * `npm run bench:citus-distribute`, not here); afterwards the tables are placed as distribution.ts says, the foreign keys
 * are back and validated, and every record is there.
 */
const name = `lk_online_${randomBytes(4).toString('hex')}`;
const url = databaseUrl(name);
const SEEDED = 30_000;

afterAll(async () => {
  for (const node of serverUrls())
    await withAdmin(node, (c) => c.query(`drop database if exists ${name} with (force)`));
});

/** A plain database on the coordinator, the same name with `citus` on the workers. */
async function singleNodeDatabase() {
  const [coordinator, ...workers] = serverUrls();
  await withAdmin(coordinator!, (c) => c.query(`create database ${name}`));
  for (const worker of workers) {
    await withAdmin(worker, (c) => c.query(`create database ${name}`));
    const inDb = new URL(worker);
    inDb.pathname = `/${name}`;
    await withAdmin(inDb.toString(), (c) => c.query('create extension citus'));
  }
  await migratePostgres(url);
}

async function seed(c: pg.Client) {
  await c.query(`insert into accounts (id, email, name, plan, api_key_hash)
                 values (1, 'online@test.test', 'Online', 'pro', 'x')`);
  await c.query(`insert into projects (uuid, owner_id, name)
                 values ('00000000-0000-4000-8000-000000000001', 1, 'P')`);
  const listId = uuidv7();
  await c.query(
    `insert into list_schemas (id, project_uuid, owner_id, name, fields)
     values ($1, '00000000-0000-4000-8000-000000000001', 1, 'L', '[]')`,
    [listId],
  );
  await c.query(
    `insert into list_items (id, schema_id, owner_id, data, t1)
     select gen_random_uuid()::text, $1, 1, jsonb_build_object('s1', 'v' || g), 'v' || g
     from generate_series(1, $2::int) g`,
    [listId, SEEDED],
  );
  return listId;
}

/** Joins the workers, as an operator does before running the placement step. */
async function joinCluster(c: pg.Client) {
  const [coordinator, ...workers] = serverUrls().map((u) => new URL(u));
  await c.query('create extension citus');
  await c.query('select citus_set_coordinator_host($1, $2)', [
    coordinator!.hostname,
    Number(coordinator!.port),
  ]);
  for (const w of workers)
    await c.query('select citus_add_node($1, $2)', [w.hostname, Number(w.port)]);
}

const foreignKeys = async (c: pg.Client) =>
  (
    await c.query<{ conname: string; convalidated: boolean }>(
      `select conname, convalidated from pg_constraint
       where contype = 'f' and connamespace = 'public'::regnamespace
         and conrelid::regclass::text = any($1) order by conname`,
      [[...REFERENCE_TABLES, ...Object.keys(DISTRIBUTED_TABLES)]],
    )
  ).rows;

describe('the online placement on Citus', () => {
  it('places a database with data while a writer goes on, and keeps every key', async () => {
    await singleNodeDatabase();
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const writer = new pg.Client({ connectionString: url });
    await writer.connect();
    try {
      const listId = await seed(c);
      const keysBefore = await foreignKeys(c);
      await joinCluster(c);

      let placing = true;
      let written = 0;
      const errors: string[] = [];
      const writes = (async () => {
        while (placing) {
          try {
            await writer.query(
              `insert into list_items (id, schema_id, owner_id, data, t1) values ($1, $2, 1, '{}', 'w')`,
              [uuidv7(), listId],
            );
            written++;
          } catch (err) {
            errors.push(String(err));
          }
        }
      })();
      await migratePostgres(url, migrationsFolder, { citusDistribution: 'online' });
      placing = false;
      await writes;

      expect(errors).toEqual([]);
      expect(written).toBeGreaterThan(50);
      const { rows: placed } = await c.query<{ name: string; kind: string; colocation: number }>(
        `select table_name::text as name, citus_table_type as kind, colocation_id as colocation
         from citus_tables`,
      );
      const kindOf = Object.fromEntries(placed.map((p) => [p.name, p.kind]));
      for (const t of REFERENCE_TABLES) expect(kindOf[t], t).toBe('reference');
      for (const t of Object.keys(DISTRIBUTED_TABLES)) expect(kindOf[t], t).toBe('distributed');
      const colocations = new Set(
        placed.filter((p) => p.kind === 'distributed').map((p) => p.colocation),
      );
      expect(colocations.size).toBe(1);
      expect(await foreignKeys(c)).toEqual(keysBefore.map((k) => ({ ...k, convalidated: true })));
      const { rows } = await c.query<{ n: string }>(
        'select count(*) as n from list_items where owner_id = 1 and schema_id = $1',
        [listId],
      );
      expect(Number(rows[0]!.n)).toBe(SEEDED + written);
      // a second start finds everything placed
      await migratePostgres(url, migrationsFolder, { citusDistribution: 'online' });
    } finally {
      await writer.end();
      await c.end();
    }
  }, 180_000);
});
