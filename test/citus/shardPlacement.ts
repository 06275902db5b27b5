import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/infra/db/client.js';
import { moveShardGroup } from '../../src/infra/db/citusShardMove.js';
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

/** The next transaction id of the node of `url`. */
export async function nextXid(url: string): Promise<bigint> {
  return withAdmin(url, async (c) => {
    const { rows } = await c.query<{ xid: string }>(`select pg_current_xact_id()::text as xid`);
    return BigInt(rows[0]!.xid);
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

/** Spends transaction ids on the node of `source` until they are `lead` ahead of `target`'s. */
export async function putAhead(source: string, target: string, lead: number): Promise<void> {
  const behind = await nextXid(source);
  await spendXids(source, Math.max(0, Number((await nextXid(target)) - behind) + lead));
}

/** The shard group of `shardId` moved online by the service's moveShardGroup. */
export async function moveGroup(
  databaseUrl: string,
  shardId: string,
  from: number,
  to: number,
  xidMargin: number,
): Promise<void> {
  await withAdmin(databaseUrl, (c) =>
    moveShardGroup(
      (text, params) => c.query(text, params),
      shardId,
      { host: HOST, port: from },
      { host: HOST, port: to },
      { mode: 'force_logical', xidMargin },
    ),
  );
}

/**
 * Citus leaves the source's copy and a move's replication slot, publication and subscription
 * to a background clean-up, done later so that statements planned before the switch can
 * finish; the test database cannot be dropped until it has run.
 */
export async function cleanUpMoves(databaseUrl: string): Promise<void> {
  await withAdmin(databaseUrl, (c) => c.query('call citus_cleanup_orphaned_resources()'));
}

/** The host of every node of the test cluster. */
export const HOST = '127.0.0.1';

/** The workers' ports: the coordinator's plus one and plus two. */
export function workerPorts(): [number, number] {
  const base = Number(new URL(serverUrls()[0]!).port);
  return [base + 1, base + 2];
}

/** Any number the test files agree on, for the lock below. */
const MOVES_LOCK = 3_114_031;

/**
 * Runs `run` while no other test file copies shards by logical replication: a shard move, or
 * an online placement (`create_distributed_table_concurrently`). Test files run side by side,
 * each in a database of its own, but on the same three servers: Citus names a copy's
 * replication slots by node id, table owner and an operation id from a per-database sequence,
 * so copies in two databases at once take the same slot names (one namespace per server) —
 * two online placements side by side once lost some 10,000 of one writer's 72,000
 * acknowledged inserts. And moveShardGroup raises a worker's transaction
 * ids for every database on it, which would undo a test that needs one worker ahead of the
 * other. Held by a session of the coordinator's `postgres` database. (One cluster serving one
 * database, as in production, has one numbering of shards.)
 */
export async function oneShardCopyAtATime<T>(run: () => Promise<T>): Promise<T> {
  return withAdmin(serverUrls()[0]!, async (c) => {
    await c.query('select pg_advisory_lock($1)', [MOVES_LOCK]);
    try {
      return await run();
    } finally {
      await c.query('select pg_advisory_unlock($1)', [MOVES_LOCK]);
    }
  });
}

/**
 * A test that places a database on the cluster online: every table's shards are copied through
 * logical replication, and on a slow CI machine list_items alone (16 partitions) took 3 min
 * 12 s of a run that passed the 300 s this was before; other runs took the whole test in less.
 */
export const PLACEMENT_TIMEOUT = 600_000;
