import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migratePostgres, migrationsFolder } from '../../src/infra/db/migrate.js';
import {
  dropSingleNodeDatabases,
  joinCluster,
  keepWriting,
  singleNodeDatabase,
} from './singleNodeDatabases.js';
import { oneShardCopyAtATime, PLACEMENT_TIMEOUT } from './shardPlacement.js';

/**
 * The change feed's `seq` through the online placement (run only with TEST_CITUS_URL,
 * vitest.config.ts). `create_distributed_table_concurrently` first makes a table a Citus
 * local table, and that drops the identity of `changes.seq` with its sequence and makes a new
 * one starting at 1 (citusChangeFeed.ts): every feed write until the copy's switch then took
 * a `seq` the account's rows already held and failed on the feed's key. A database migrated
 * as a plain Postgres, its feed already far on (the sequence moved past the rows, as after a
 * purge) and the account holding `seq` 1..FEED_ROWS, is placed online while a writer adds
 * feed rows for that account: no write fails, and the coordinator's sequence goes on from
 * where it stood.
 */
const FEED_ROWS = 2_000;
const FEED_AT = 1_000_000_000;
afterAll(dropSingleNodeDatabases);

const sequenceAt = async (c: pg.Client) =>
  Number(
    (
      await c.query<{ v: string }>(
        `select last_value as v from pg_sequences
         where schemaname = 'public' and sequencename = 'changes_seq_seq'`,
      )
    ).rows[0]!.v,
  );

/**
 * A single-node database with one account (id 1), its feed prepared by `prepare`, joined to
 * the cluster and placed online while a writer adds feed rows for the account; `check` gets
 * the coordinator's client and the writer's count.
 */
async function placeWhileWriting(
  prepare: (c: pg.Client) => Promise<void>,
  check: (c: pg.Client, written: number) => Promise<void>,
) {
  const url = await singleNodeDatabase(`lk_feedseq_${randomBytes(4).toString('hex')}`);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const writer = new pg.Client({ connectionString: url });
  await writer.connect();
  try {
    await c.query(`insert into accounts (id, email, name, plan, api_key_hash)
                   values (1, 'feedseq@test.test', 'Feed', 'pro', 'x')`);
    await prepare(c);
    const writer$ = keepWriting(() =>
      writer.query(`insert into changes (account_id, type) values (1, 'list_item_added')`),
    );
    await oneShardCopyAtATime(() =>
      migratePostgres(url, migrationsFolder, { citusDistribution: 'online' }),
    );
    const { written, errors } = await writer$.stop();

    expect({ failed: errors.length, first: errors.slice(0, 3) }).toEqual({ failed: 0, first: [] });
    expect(written).toBeGreaterThan(50);
    const { rows: kind } = await c.query<{ kind: string }>(
      `select citus_table_type as kind from citus_tables where table_name = 'changes'::regclass`,
    );
    expect(kind).toEqual([{ kind: 'distributed' }]);
    await check(c, written);
  } finally {
    await writer.end();
    await c.end();
  }
}

describe('the change feed placed online', () => {
  it(
    'keeps its sequence: no feed write made during the placement takes a seq already used',
    async () => {
      await placeWhileWriting(
        async (c) => {
          await c.query(
            `insert into changes (account_id, type) select 1, 'list_item_added'
           from generate_series(1, $1::int)`,
            [FEED_ROWS],
          );
          await c.query('select setval($1, $2)', ['changes_seq_seq', FEED_AT]);
          await joinCluster(c);
        },
        async (c, written) => {
          // the coordinator's copy went on from where it stood, not from 1
          expect(await sequenceAt(c)).toBeGreaterThan(FEED_AT);
          const { rows } = await c.query<{ n: string; low: string }>(
            `select count(*) as n, count(*) filter (where seq <= $1) as low from changes`,
            [FEED_ROWS],
          );
          expect(Number(rows[0]!.n)).toBe(FEED_ROWS + written);
          expect(Number(rows[0]!.low)).toBe(FEED_ROWS);
        },
      );
    },
    PLACEMENT_TIMEOUT,
  );

  it(
    'resumes a placement stopped after Citus restarted the sequence: seq goes on past every one handed out',
    async () => {
      await placeWhileWriting(
        async (c) => {
          // rows 1..FEED_ROWS purged (the purge mark says so), ten rows left far on
          await c.query('select setval($1, $2)', ['changes_seq_seq', FEED_AT]);
          await c.query(
            `insert into changes (account_id, type) select 1, 'list_item_added'
           from generate_series(1, 10)`,
          );
          await c.query('update change_feed_state set purged_seq = $1', [FEED_ROWS]);
          await joinCluster(c);
          // what a placement by older code, or by hand, left when stopped after its first step
          await c.query(`select citus_add_local_table_to_metadata('changes')`);
          expect(await sequenceAt(c)).toBeLessThan(FEED_ROWS);
        },
        async (c, written) => {
          // past every seq handed out before (the ten rows kept): left at its restart, its next
          // seq would come before theirs, and a reader whose cursor is past them would miss it
          expect(await sequenceAt(c)).toBeGreaterThanOrEqual(FEED_AT + 10);
          const { rows } = await c.query<{ n: string }>('select count(*) as n from changes');
          expect(Number(rows[0]!.n)).toBe(10 + written);
        },
      );
    },
    PLACEMENT_TIMEOUT,
  );
});
