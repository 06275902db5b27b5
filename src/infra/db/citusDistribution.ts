import {
  DISTRIBUTED_TABLES,
  REFERENCE_TABLES,
  placementStatements,
  type ForeignKey,
} from './distribution.js';
import { CITUS_CHANGE_FEED_SQL } from './citusChangeFeed.js';
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
 * `list_schemas` keeps its row triggers (they write `list_layouts` of the same owner, on the
 * same worker), which Citus accepts only with `citus.enable_unsafe_triggers`; the contact
 * stats triggers are replaced (citusContactStats.ts), and `changes` gets a trigger that stamps
 * each row with the worker's transaction id (citusChangeFeed.ts). All in one transaction: a crash leaves
 * the tables as they were. `online` places a database that keeps serving (citusOnlineDistribution.ts).
 */
export async function distributeOnCitus(
  run: RunSql,
  mode: CitusDistributionMode = 'transaction',
): Promise<boolean> {
  const { rows: ext } = await run(`select 1 from pg_extension where extname = 'citus'`);
  if (ext.length === 0) return false;
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
  if (tables.every((t) => placed.has(t))) return false;
  const { rows: fks } = await run(
    `select conrelid::regclass::text as tbl, conname, pg_get_constraintdef(oid) as def
     from pg_constraint where contype = 'f' and conrelid::regclass::text = any($1)`,
    [tables],
  );
  if (mode === 'online') {
    await runOnline(run, fks as ForeignKey[], placed);
    return true;
  }
  await run('begin');
  try {
    for (const statement of citusDistributionSteps(fks as ForeignKey[], placed)) {
      await run(statement);
    }
    await run('commit');
  } catch (err) {
    await run('rollback');
    throw err;
  }
  return true;
}

/**
 * The online steps one by one. On a failure the foreign keys dropped so far come back (each
 * one that is already there fails on its own), so a run that stops leaves the schema whole.
 */
async function runOnline(run: RunSql, fks: ForeignKey[], placed: Set<string>) {
  try {
    for (const statement of citusOnlineSteps(fks, placed)) await run(statement);
  } catch (err) {
    await run('rollback').catch(() => undefined);
    for (const statement of restoreForeignKeys(fks)) await run(statement).catch(() => undefined);
    throw err;
  }
}

/**
 * The statements of distributeOnCitus, for the tables not placed yet. The rows a table holds
 * are copied into its shards by inserts, which fire the shards' row triggers: the triggers
 * this step adds come after the copies (else the contact stats would count every contact
 * again and the feed's existing rows would get new ids), and `list_layouts` is placed before
 * `list_schemas`, whose insert trigger writes it (distribution.ts).
 */
export function citusDistributionSteps(fks: ForeignKey[], placed: Set<string>): string[] {
  const steps = ['SET LOCAL citus.enable_unsafe_triggers = on'];
  for (const fk of fks) steps.push(`ALTER TABLE ${fk.tbl} DROP CONSTRAINT "${fk.conname}"`);
  // functions first: Citus refuses a function's creation after a parallel copy in the transaction
  const [statsFunction, statsTrigger] = CITUS_CONTACT_STATS_SQL;
  const [feedFunction, feedTrigger] = CITUS_CHANGE_FEED_SQL;
  if (!placed.has('contacts')) steps.push(statsFunction!, ...DROP_POSTGRES_CONTACT_STATS_TRIGGERS);
  if (!placed.has('changes')) steps.push(feedFunction!);
  steps.push(...placementStatements(placed));
  if (!placed.has('contacts')) steps.push(statsTrigger!);
  if (!placed.has('changes')) steps.push(feedTrigger!);
  for (const fk of fks)
    steps.push(`ALTER TABLE ${fk.tbl} ADD CONSTRAINT "${fk.conname}" ${fk.def}`);
  return steps;
}
