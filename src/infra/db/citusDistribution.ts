import {
  DISTRIBUTED_TABLES,
  REFERENCE_TABLES,
  placementStatements,
  type ForeignKey,
} from './distribution.js';
import { CITUS_DROP_TRIGGERS } from './citusTriggers.js';
import {
  CITUS_CONTACT_STATS_SQL,
  DROP_POSTGRES_CONTACT_STATS_TRIGGERS,
} from './citusContactStats.js';
import { citusOnlineSteps, restoreForeignKeys } from './citusOnlineDistribution.js';
import type { RunSql } from './onlineIndexes.js';

/**
 * How the placement runs (CITUS_DISTRIBUTION): `transaction`, all of it in one transaction
 * (writes to each table wait while its rows are copied); `online`, statement by statement with
 * the big tables copied while writes go on (citusOnlineDistribution.ts).
 */
export type CitusDistributionMode = 'transaction' | 'online';

/**
 * On a database with the `citus` extension, places the tables as `distribution.ts` says:
 * reference tables, then distributed tables colocated with the first by the tenant key. Runs
 * after the migrations, at every start; a database already placed costs one query. On a
 * plain Postgres it does nothing (the extension is not there).
 *
 * Citus refuses to distribute a table that a local table refers to, and converts tables that
 * refer to a new reference table into "Citus local" tables (a copy of their rows). So every
 * foreign key of the placed tables is dropped first and added back once all are placed.
 * The row triggers Citus would run only as "unsafe" are dropped first (citusTriggers.ts); the
 * contact stats' statement triggers are replaced by one row trigger (citusContactStats.ts),
 * the one trigger a placed database keeps. All in one transaction: a crash leaves the tables as
 * they were; foreign keys an online run killed midway left dropped come back. `online` places
 * a database that keeps serving (citusOnlineDistribution.ts).
 */
export async function distributeOnCitus(
  run: RunSql,
  mode: CitusDistributionMode = 'transaction',
): Promise<boolean> {
  const { rows: ext } = await run(`select 1 from pg_extension where extname = 'citus'`);
  if (ext.length === 0) return false;
  await run(CITUS_DROP_TRIGGERS);
  const placed = new Set(
    (
      (
        await run(
          `select table_name::text as name from citus_tables
         where citus_table_type in ('distributed', 'reference')`,
        )
      ).rows as { name: string }[]
    ).map((r) => r.name),
  );
  const tables = [...REFERENCE_TABLES, ...Object.keys(DISTRIBUTED_TABLES)];
  const { rows: fks } = await run(
    `select conrelid::regclass::text as tbl, conname, pg_get_constraintdef(oid) as def
     from pg_constraint where contype = 'f' and conrelid::regclass::text = any($1)`,
    [tables],
  );
  const missing = await keysLeftDropped(run, fks as ForeignKey[]);
  if (tables.every((t) => placed.has(t))) {
    if (missing.length === 0) return false;
    for (const statement of restoreForeignKeys(missing)) await run(statement);
    await run(`delete from ${DROPPED_KEYS}`);
    return true;
  }
  if (mode === 'online') {
    await runOnline(run, fks as ForeignKey[], missing, placed);
    return true;
  }
  await run('begin');
  try {
    for (const statement of citusDistributionSteps(fks as ForeignKey[], placed, missing)) {
      await run(statement);
    }
    await run(`delete from ${DROPPED_KEYS}`);
    await run('commit');
  } catch (err) {
    await run('rollback');
    throw err;
  }
  return true;
}

/**
 * Where the foreign keys an online placement drops wait until they are back: a run killed
 * midway leaves them there, and the next start (distributeOnCitus) adds back those still
 * missing. In the migrator's own schema, which stays on the coordinator.
 */
const DROPPED_KEYS = 'drizzle.citus_dropped_foreign_keys';

/** The foreign keys an earlier placement dropped and did not add back (none: the usual). */
async function keysLeftDropped(run: RunSql, present: ForeignKey[]): Promise<ForeignKey[]> {
  await run(`create table if not exists ${DROPPED_KEYS}
    (tbl text not null, conname text not null, def text not null, primary key (tbl, conname))`);
  const { rows } = await run(`select tbl, conname, def from ${DROPPED_KEYS}`);
  return (rows as ForeignKey[]).filter(
    (k) => !present.some((p) => p.tbl === k.tbl && p.conname === k.conname),
  );
}

/**
 * The online steps one by one, the foreign keys written down before any is dropped. On a
 * failure the keys come back (each one that is already there fails on its own), so a run that
 * stops leaves the schema whole; one that is killed leaves them written down.
 */
async function runOnline(
  run: RunSql,
  fks: ForeignKey[],
  missing: ForeignKey[],
  placed: Set<string>,
) {
  await run(
    `insert into ${DROPPED_KEYS} (tbl, conname, def)
     select * from unnest($1::text[], $2::text[], $3::text[]) on conflict do nothing`,
    [fks.map((k) => k.tbl), fks.map((k) => k.conname), fks.map((k) => k.def)],
  );
  try {
    for (const statement of citusOnlineSteps(fks, placed, missing)) await run(statement);
  } catch (err) {
    await run('rollback').catch(() => undefined);
    for (const statement of restoreForeignKeys([...fks, ...missing]))
      await run(statement).catch(() => undefined);
    throw err;
  }
  await run(`delete from ${DROPPED_KEYS}`);
}

/**
 * The statements of distributeOnCitus, for the tables not placed yet. The rows a table holds
 * are copied into its shards by inserts, which fire the shards' row triggers: the contact stats
 * trigger this step adds comes after the copies (else the stats would count every contact
 * again).
 */
export function citusDistributionSteps(
  fks: ForeignKey[],
  placed: Set<string>,
  /** keys an earlier, killed placement dropped: added back with the rest */
  missing: ForeignKey[] = [],
): string[] {
  const steps = ['SET LOCAL citus.enable_unsafe_triggers = on'];
  for (const fk of fks) steps.push(`ALTER TABLE ${fk.tbl} DROP CONSTRAINT "${fk.conname}"`);
  // functions first: Citus refuses a function's creation after a parallel copy in the transaction
  const [statsFunction, statsTrigger] = CITUS_CONTACT_STATS_SQL;
  if (!placed.has('contacts')) steps.push(statsFunction!, ...DROP_POSTGRES_CONTACT_STATS_TRIGGERS);
  steps.push(...placementStatements(placed));
  if (!placed.has('contacts')) steps.push(statsTrigger!);
  for (const fk of [...fks, ...missing])
    steps.push(`ALTER TABLE ${fk.tbl} ADD CONSTRAINT "${fk.conname}" ${fk.def}`);
  return steps;
}
