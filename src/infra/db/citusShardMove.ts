import { sqlState } from './databaseErrors.js';
import type { RunSql } from './onlineIndexes.js';

/** A worker of the cluster, as Citus's metadata names it. */
export interface WorkerNode {
  host: string;
  port: number;
}

export interface ShardMoveOptions {
  /** Citus's shard_transfer_mode: 'auto' and 'force_logical' move online, 'block_writes' does not */
  mode?: 'auto' | 'force_logical' | 'block_writes';
  /**
   * How far past the source's transaction ids the target's are raised: at least the
   * transactions the source starts while the move runs (docs/scaling.md, "Shard moves").
   */
  xidMargin?: number;
}

/**
 * Moves the shard group of `shardId` from one worker to another, keeping the change feed
 * whole. A moved `changes` row keeps the source's transaction id (src/changes/feedStamp.ts),
 * and readers hold cursors of the source's snapshots; the target's transaction ids are its
 * own. So before the move they are raised past the source's (plus `xidMargin`): every change
 * written after the move then sorts after every change written before it in the snapshots'
 * order, as one server's would. (`seq` needs nothing: the coordinator hands it out.)
 */
export async function moveShardGroup(
  run: RunSql,
  shardId: number | string,
  from: WorkerNode,
  to: WorkerNode,
  { mode = 'auto', xidMargin = 100_000 }: ShardMoveOptions = {},
): Promise<void> {
  const sourceXid = await onWorker(run, from, 'select pg_current_xact_id()::text');
  await onWorker(run, to, raiseXids(BigInt(sourceXid) + BigInt(xidMargin)));
  for (let attempt = 1; ; attempt++) {
    try {
      await run(
        `select citus_move_shard_placement($1, $2, $3, $4, $5,
           shard_transfer_mode => $6::citus.shard_transfer_mode)`,
        [shardId, from.host, from.port, to.host, to.port, mode],
      );
      return;
    } catch (err) {
      // Citus's deadlock detection may pick the move, which waits on the shards' locks while
      // requests hold them: nothing moved, so it starts again — after a pause that grows, so
      // the requests that won get through first (at once, the same requests met it again)
      if (attempt >= MOVE_ATTEMPTS || sqlState(err) !== DEADLOCK) throw err;
      await new Promise((resolve) => setTimeout(resolve, MOVE_PAUSE_MS * attempt));
    }
  }
}

const MOVE_ATTEMPTS = 8;
const MOVE_PAUSE_MS = 250;
const DEADLOCK = '40P01';

/** Ends transactions one by one until the worker's transaction ids reach `goal`. */
function raiseXids(goal: bigint): string {
  return `DO $$ BEGIN
    WHILE pg_current_xact_id() < '${goal}'::xid8 LOOP COMMIT; END LOOP;
  END $$`;
}

/** Runs `command` on one worker, in the same database, through the coordinator. */
async function onWorker(run: RunSql, node: WorkerNode, command: string): Promise<string> {
  const { rows } = await run(
    `select success, result from master_run_on_worker(array[$1], array[$2]::int[], array[$3], false)`,
    [node.host, node.port, command],
  );
  const [row] = rows as { success: boolean; result: string }[];
  if (!row?.success) throw new Error(`on worker ${node.host}:${node.port}: ${row?.result}`);
  return row.result;
}
