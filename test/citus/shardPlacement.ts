import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/infra/db/client.js';
import { serverUrls } from '../helpers/env.js';
import { withAdmin } from '../helpers/templateDatabase.js';

/** Where an account's shards live on the test cluster (test/helpers/env.ts: ports BASE+1, BASE+2). */

/** The shards holding `ownerId`'s rows, one per distributed table, with their worker's port. */
export async function shardsOf(db: Database, ownerId: number) {
  return queryRows<{ table: string; shardid: string; port: number }>(
    db,
    sql`select s.table_name::text as "table", s.shardid::text as shardid, s.nodeport as port
        from citus_shards s join pg_dist_partition p on p.logicalrelid = s.table_name
        where p.partmethod = 'h'
          and s.shardid = get_shard_id_for_distribution_column(s.table_name, ${ownerId}::bigint)`,
  );
}

/** The URL of `database` on the node listening on `port`. */
export function nodeUrl(database: string, port: number): string {
  const url = new URL(serverUrls()[0]!);
  url.port = String(port);
  url.pathname = `/${database}`;
  return url.toString();
}

/** A worker's next transaction id and the last value of its `changes` sequence. */
export async function feedCounters(url: string): Promise<{ xid: bigint; seq: bigint }> {
  return withAdmin(url, async (c) => {
    const { rows } = await c.query<{ xid: string; seq: string }>(
      `select pg_current_xact_id()::text as xid, last_value::text as seq from changes_seq_seq`,
    );
    return { xid: BigInt(rows[0]!.xid), seq: BigInt(rows[0]!.seq) };
  });
}

/** Spends `count` transaction ids on the node of `url`, one committed transaction each. */
export async function spendXids(url: string, count: number): Promise<void> {
  await withAdmin(url, (c) =>
    c.query(`DO $$ BEGIN
      FOR i IN 1..${Math.trunc(count)} LOOP PERFORM pg_current_xact_id(); COMMIT; END LOOP;
    END $$`),
  );
}

/** The workers' ports: the coordinator's plus one and plus two. */
export function workerPorts(): [number, number] {
  const base = Number(new URL(serverUrls()[0]!).port);
  return [base + 1, base + 2];
}

/** Any number the test files agree on, for the lock below. */
const MOVES_LOCK = 3_114_031;

/**
 * Runs `run` while no other test file moves shards. Test files run side by side, each in a
 * database of its own, but on the same three servers: two moves at once collide on Citus's
 * replication slot names (one namespace per server), and moveShardGroup raises a worker's
 * transaction ids for every database on it, which would undo a test that needs one worker
 * ahead of the other. Held by a session of the coordinator's `postgres` database.
 */
export async function oneMoveAtATime<T>(run: () => Promise<T>): Promise<T> {
  return withAdmin(serverUrls()[0]!, async (c) => {
    await c.query('select pg_advisory_lock($1)', [MOVES_LOCK]);
    try {
      return await run();
    } finally {
      await c.query('select pg_advisory_unlock($1)', [MOVES_LOCK]);
    }
  });
}
