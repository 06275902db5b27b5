import pg from 'pg';
import { migratePostgres } from '../../src/infra/db/migrate.js';
import { databaseUrl, serverUrls } from '../helpers/env.js';
import { withAdmin } from '../helpers/templateDatabase.js';

/**
 * Databases that start as a plain Postgres on the coordinator and are then placed on the
 * cluster, as an operator moving to Citus does (the placement tests). Each test file drops its
 * own at the end (`dropSingleNodeDatabases` in afterAll).
 */
const made: string[] = [];

/** A plain database on the coordinator, migrated; the same name with `citus` on the workers. */
export async function singleNodeDatabase(name: string): Promise<string> {
  made.push(name);
  const url = databaseUrl(name);
  const [coordinator, ...workers] = serverUrls();
  await withAdmin(coordinator!, (c) => c.query(`create database ${name}`));
  for (const worker of workers) {
    await withAdmin(worker, (c) => c.query(`create database ${name}`));
    const inDb = new URL(worker);
    inDb.pathname = `/${name}`;
    await withAdmin(inDb.toString(), (c) => c.query('create extension citus'));
  }
  await migratePostgres(url);
  return url;
}

export async function dropSingleNodeDatabases(): Promise<void> {
  for (const name of made.splice(0))
    for (const node of serverUrls())
      await withAdmin(node, (c) => c.query(`drop database if exists ${name} with (force)`));
}

/** Joins the workers, as an operator does before running the placement step. */
export async function joinCluster(c: pg.Client): Promise<void> {
  const [coordinator, ...workers] = serverUrls().map((u) => new URL(u));
  await c.query('create extension citus');
  await c.query('select citus_set_coordinator_host($1, $2)', [
    coordinator!.hostname,
    Number(coordinator!.port),
  ]);
  for (const w of workers)
    await c.query('select citus_add_node($1, $2)', [w.hostname, Number(w.port)]);
}

/**
 * Runs `write` again and again on its own client until `stop`: how many succeeded, and the
 * errors of those that failed.
 */
export function keepWriting(write: () => Promise<unknown>) {
  let going = true;
  let written = 0;
  const errors: string[] = [];
  const loop = (async () => {
    while (going) {
      try {
        await write();
        written++;
      } catch (err) {
        errors.push(String(err));
      }
    }
  })();
  return {
    async stop(): Promise<{ written: number; errors: string[] }> {
      going = false;
      await loop;
      return { written, errors };
    },
  };
}
