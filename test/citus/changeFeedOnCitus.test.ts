import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { listsOnTransaction } from '../../src/lists/context.js';
import { addItem } from '../../src/lists/items/addItem.js';
import { call } from '../helpers/call.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { testAppForFile } from '../helpers/testAppForFile.js';
import { createListViaApi } from '../helpers/viaApi.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * The change feed on a Citus cluster (run only with TEST_CITUS_URL, vitest.config.ts; on
 * Postgres test/property/changeFeedOrder.test.ts is the proof): two accounts whose shards live on
 * different workers, writers on both at once — single and batch methods, new lists (which also
 * write a reference table, so they commit in two phases), transactions that write both
 * accounts' shards (two workers, two phases) — and a reader per account following its feed in
 * small pages the whole time. What each reader saw, replayed, must be exactly what the
 * database holds, with no change twice; and every change row must carry the transaction id of
 * the worker that holds it (src/changes/feedStamp.ts), which the readers' snapshots are
 * taken on.
 */
const t = testAppForFile({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });

/** The worker (port) holding `accountId`'s shard of `changes`. */
async function workerOf(accountId: number): Promise<number> {
  const rows = (await t.db.execute(
    sql`select nodeport from citus_shards
        where table_name = 'changes'::regclass
          and shardid = get_shard_id_for_distribution_column('changes', ${accountId}::bigint)`,
  )) as unknown as { rows: { nodeport: number }[] };
  return Number(rows.rows[0]!.nodeport);
}

/** Two tenants on different workers. */
async function tenantsApart(): Promise<[Tenant, Tenant]> {
  const first = await makeTenant(t.db);
  const at = await workerOf(first.accountId);
  for (let i = 0; i < 40; i++) {
    const other = await makeTenant(t.db);
    if ((await workerOf(other.accountId)) !== at) return [first, other];
  }
  throw new Error('no tenant landed on the other worker');
}

/** Calls per writer, not a time window: a loaded machine fits fewer calls in one. */
const CALLS_PER_WRITER = 30;

describe('the change feed on Citus', () => {
  it('replays to exactly the database for accounts on two workers, written at once', async () => {
    const tenants = await tenantsApart();
    const state = await Promise.all(
      tenants.map(async (me) => {
        const lists: string[] = [];
        for (let i = 0; i < 2; i++) {
          lists.push(
            (
              await createListViaApi(t.app, me, [
                { slug: 'title', name: 'Title', type: 'string', is_required: false },
              ])
            ).id,
          );
        }
        return { me, lists, items: [] as string[], seen: [] as any[], cursor: '' };
      }),
    );
    const ctxOf = (me: Tenant) => ({ ...t.deps.lists, caller: { accountId: me.accountId } }) as any;

    let n = 0;
    const writer = async (s: (typeof state)[number], w: number) => {
      const key = { key: s.me.apiKey };
      for (let own = 0; own < CALLS_PER_WRITER; own++) {
        n++;
        const list = s.lists[n % s.lists.length]!;
        const pick = s.items[(n * 7 + w) % Math.max(s.items.length, 1)];
        switch (n % 6) {
          case 0: {
            const r = await call(
              t.app,
              'addListItem',
              { schema_id: list, data: { title: `a${n}` } },
              key,
            );
            expect(r.status).toBe(201);
            s.items.push(r.body.data.id);
            break;
          }
          case 1: {
            const r = await call(
              t.app,
              'addListItems',
              { schema_id: list, items: [{ title: `m${n}` }, { title: `n${n}` }] },
              key,
            );
            expect(r.status).toBe(201);
            for (const out of r.body.data) s.items.push((out.data ?? out).id);
            break;
          }
          case 2:
            if (pick)
              await call(t.app, 'updateListItem', { item_id: pick, data: { title: `u${n}` } }, key);
            break;
          case 3: {
            const r = await call(t.app, 'getListItems', { schema_id: list, limit: 3 }, key);
            const ids = r.body.data.map((i: any) => i.id);
            if (ids.length > 0)
              await call(
                t.app,
                'updateListItems',
                {
                  schema_id: list,
                  items: ids.map((id: string) => ({ item_id: id, data: { title: `v${n}` } })),
                },
                key,
              );
            break;
          }
          case 4:
            // a new list: the project's count is a reference table, so two-phase commit
            s.lists.push(
              (
                await createListViaApi(t.app, s.me, [
                  { slug: 'title', name: 'Title', type: 'string', is_required: false },
                ])
              ).id,
            );
            break;
          case 5: {
            // one transaction writing both accounts' shards: two workers, two-phase commit
            await t.db.transaction(async (tx) => {
              for (const other of state) {
                await addItem(listsOnTransaction(ctxOf(other.me), tx), other.lists[0]!, {
                  title: `x${n}`,
                });
              }
            });
            break;
          }
        }
      }
    };
    const read = async (s: (typeof state)[number]) => {
      const r = await call(
        t.app,
        'getChanges',
        { limit: 7, ...(s.cursor ? { since: s.cursor } : {}) },
        { key: s.me.apiKey },
      );
      expect(r.status).toBe(200);
      s.seen.push(...r.body.data);
      s.cursor = r.body.meta.next_cursor;
      return r.body.meta.has_more as boolean;
    };
    let writing = true;
    const readers = state.map(async (s) => {
      while (writing) await read(s);
    });
    await Promise.all(state.flatMap((s) => [0, 1, 2].map((w) => writer(s, w))));
    writing = false;
    await Promise.all(readers);

    for (const s of state) {
      while (await read(s));
      expect(s.seen.length).toBeGreaterThan(20);
      const ids = s.seen.map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
      // what the events say, replayed, against what the database holds
      const replayed = new Map<string, unknown>();
      for (const e of s.seen) {
        if (e.type === 'list_item.created' || e.type === 'list_item.updated')
          replayed.set(e.item_id, e.data);
      }
      const actual = new Map<string, unknown>();
      for (const schemaId of s.lists) {
        const r = await call(
          t.app,
          'getListItems',
          { schema_id: schemaId, limit: 1000 },
          { key: s.me.apiKey },
        );
        for (const item of r.body.data) actual.set(item.id, item);
      }
      expect(replayed).toEqual(actual);
      expect(s.seen.filter((e) => e.type === 'list_schema.created')).toHaveLength(s.lists.length);
      const stored = (await t.db.execute(
        sql`select count(*)::int as n,
              count(*) filter (where txid::text::bigint % 4294967296 <> xmin::text::bigint)::int as elsewhere
            from changes where account_id = ${s.me.accountId}`,
      )) as unknown as { rows: { n: number; elsewhere: number }[] };
      expect(stored.rows[0]).toEqual({ n: s.seen.length, elsewhere: 0 });
    }
  }, 120_000);
});
