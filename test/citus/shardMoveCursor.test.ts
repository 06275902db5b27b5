import { describe, expect, it } from 'vitest';
import { call } from '../helpers/call.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { withAdmin } from '../helpers/templateDatabase.js';
import { testAppForFile } from '../helpers/testAppForFile.js';
import { createListViaApi } from '../helpers/viaApi.js';
import {
  cleanUpMoves,
  HOST,
  moveGroup,
  nodeUrl,
  oneShardCopyAtATime,
  putAhead,
  shardsOf,
  workerPorts,
} from './shardPlacement.js';

/**
 * Why moveShardGroup raises the target's counters (docs/scaling.md, "Shard moves"), shown
 * without a race (run only with TEST_CITUS_URL, vitest.config.ts): a reader holds a feed
 * cursor taken on the source worker, whose transaction ids are ahead of the target's; the
 * tenant's shards move; one record is added on the target; the reader asks for what is new.
 * Moved by Citus alone, the new change carries a transaction id the old cursor counts as
 * already seen, and the reader never gets it. Moved by moveShardGroup, it gets it.
 */
const t = testAppForFile({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });

/** how far the source's transaction ids are put ahead of the target's */
const XID_LEAD = 20_000;

/** A new tenant with every shard on one worker, that worker's transaction ids ahead. */
async function tenantAhead(): Promise<{ me: Tenant; from: number; to: number }> {
  for (let i = 0; i < 40; i++) {
    const me = await makeTenant(t.db);
    const ports = new Set((await shardsOf(t.db, me.accountId)).map((s) => s.port));
    if (ports.size !== 1) continue;
    const [from] = [...ports];
    const to = workerPorts().find((p) => p !== from)!;
    const [source, target] = [from!, to].map((p) => nodeUrl(t.database.name, p));
    await putAhead(source!, target!, XID_LEAD);
    return { me, from: from!, to };
  }
  throw new Error('no tenant landed on one worker');
}

/** The changes after `cursor` (all of them, page by page), and the cursor after them. */
async function changesSince(me: Tenant, cursor?: string) {
  const seen: { type: string; item_id?: string }[] = [];
  for (;;) {
    const res = await call(
      t.app,
      'getChanges',
      { limit: 100, ...(cursor ? { since: cursor } : {}) },
      { key: me.apiKey },
    );
    expect(res.status).toBe(200);
    seen.push(...res.body.data);
    cursor = res.body.meta.next_cursor as string;
    if (!res.body.meta.has_more) return { seen, cursor };
  }
}

/** A list with one record, a cursor at the feed's head, then the move, then a new record. */
function afterMove(move: (shardId: string, from: number, to: number) => Promise<void>) {
  return oneShardCopyAtATime(() => moveAndAdd(move));
}

async function moveAndAdd(move: (shardId: string, from: number, to: number) => Promise<void>) {
  const { me, from, to } = await tenantAhead();
  const list = await createListViaApi(t.app, me, [
    { slug: 'title', name: 'Title', type: 'string', is_required: false },
  ]);
  const add = (title: string) =>
    call(t.app, 'addListItem', { schema_id: list.id, data: { title } }, { key: me.apiKey });
  expect((await add('before')).status).toBe(201);
  const { cursor } = await changesSince(me);
  const [bots] = (await shardsOf(t.db, me.accountId)).filter((s) => s.table === 'bots');
  try {
    await move(bots!.shardid, from, to);
  } finally {
    await cleanUpMoves(t.database.url);
  }
  expect((await shardsOf(t.db, me.accountId)).every((s) => s.port === to)).toBe(true);
  const added = await add('after');
  expect(added.status).toBe(201);
  const { seen } = await changesSince(me, cursor);
  return { added: added.body.data.id as string, seen };
}

describe('a feed cursor taken before a shard move', () => {
  it('misses a change written after a move by Citus alone (the hazard)', async () => {
    const { added, seen } = await afterMove((shardId, from, to) =>
      withAdmin(t.database.url, async (c) => {
        await c.query(
          `select citus_move_shard_placement($1, $2, $3, $4, $5,
             shard_transfer_mode => 'force_logical')`,
          [shardId, HOST, from, HOST, to],
        );
      }),
    );
    expect(seen.map((c) => c.item_id)).not.toContain(added);
  }, 120_000);

  it('gets a change written after a move by moveShardGroup', async () => {
    const { added, seen } = await afterMove((shardId, from, to) =>
      moveGroup(t.database.url, shardId, from, to, 10_000),
    );
    expect(seen.map((c) => ({ type: c.type, item_id: c.item_id }))).toEqual([
      { type: 'list_item.created', item_id: added },
    ]);
  }, 120_000);
});
