import pg from 'pg';
import { moveShardGroup, type WorkerNode } from '../../infra/db/citusShardMove.js';
import type { RunSql } from '../../infra/db/onlineIndexes.js';
import { OperatorError } from '../../operator/operatorError.js';
import { defineCommand } from '../command.js';

/**
 * On Citus: moves the shard group holding an account (its rows of every distributed table,
 * with those of the other accounts that hash to the same shards) to another worker while the
 * service keeps serving, the change feed kept in order (moveShardGroup; docs/scaling.md,
 * "Moving a tenant").
 */
export const tenantMove = defineCommand({
  title: 'Tenant moved.',
  flags: {
    account: { description: 'account ID', required: true, kind: 'id', placeholder: 'ID' },
    to: {
      description: 'the worker to move to, as Citus names it',
      required: true,
      placeholder: 'HOST:PORT',
    },
    mode: {
      description: "Citus's shard_transfer_mode: auto (default) or force_logical, both online",
      choices: ['auto', 'force_logical'],
      placeholder: 'MODE',
    },
  },
  async run({ config }, flags) {
    const to = workerOf(flags.to);
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      const run: RunSql = (text, params) => client.query(text, params);
      const placed = await placementOf(run, flags.account);
      const worker = await run(
        `select 1 from pg_dist_node
         where nodename = $1 and nodeport = $2 and isactive and noderole = 'primary'`,
        [to.host, to.port],
      );
      if (worker.rows.length === 0)
        throw new OperatorError(`${flags.to} is not an active worker of the cluster`);
      const from = { host: placed.host, port: placed.port };
      const moved = from.host !== to.host || from.port !== to.port;
      const started = Date.now();
      if (moved) await moveShardGroup(run, placed.shard, from, to, { mode: flags.mode ?? 'auto' });
      return {
        account: flags.account,
        shard: placed.shard,
        from: `${from.host}:${from.port}`,
        to: `${to.host}:${to.port}`,
        moved,
        seconds: Math.round((Date.now() - started) / 100) / 10,
      };
    } finally {
      await client.end();
    }
  },
});

function workerOf(text: string): WorkerNode {
  const match = /^(.+):(\d{1,5})$/.exec(text);
  if (!match) throw new OperatorError(`--to takes HOST:PORT, not ${text}`);
  return { host: match[1]!, port: Number(match[2]) };
}

/** The account's shard of `bots` (its group's anchor) and the worker holding it. */
async function placementOf(run: RunSql, accountId: number) {
  const citus = await run(`select 1 from pg_extension where extname = 'citus'`);
  if (citus.rows.length === 0) throw new OperatorError('the database is not on Citus');
  const account = await run(`select 1 from accounts where id = $1`, [accountId]);
  if (account.rows.length === 0) throw new OperatorError(`account ${accountId} does not exist`);
  const { rows } = await run(
    `select s.shardid::text as shard, s.nodename as host, s.nodeport as port from citus_shards s
     where s.shardid = get_shard_id_for_distribution_column('bots', $1::bigint)`,
    [accountId],
  );
  const row = rows[0] as { shard: string; host: string; port: number } | undefined;
  if (!row) throw new OperatorError(`no shard holds account ${accountId}`);
  return row;
}
