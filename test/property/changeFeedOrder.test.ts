import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { upsertContact } from '../../src/contacts/upsertRepository.js';
import { listsOnTransaction } from '../../src/lists/context.js';
import { addItem } from '../../src/lists/items/addItem.js';
import { updateItem } from '../../src/lists/items/updateItem.js';
import { call } from '../helpers/call.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { testAppForFile } from '../helpers/testAppForFile.js';
import { createListViaApi } from '../helpers/viaApi.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * The change feed's guarantee, tested the hard way: 16 writers change lists, items and
 * contacts at once — single and batch methods, transactions that roll back, transactions
 * that sleep before committing (their events hold low `seq`s and commit late) — while a
 * reader follows the feed in small pages. Replaying what the reader saw onto empty maps must
 * give exactly what the database holds: a skipped, repeated, reordered or rolled-back change
 * would show as a difference. fast-check draws the writers' operations and timings.
 */

const WRITERS = 16;
const SEED = Number(process.env.FEED_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = Number(process.env.FEED_RUNS ?? 3);

type Op =
  | { kind: 'add'; list: number; title: string }
  | { kind: 'addMany'; list: number; titles: string[] }
  | { kind: 'update'; pick: number; title: string }
  | { kind: 'updateMany'; picks: number[]; title: string }
  | { kind: 'delete'; pick: number }
  | { kind: 'contact'; who: number; name: string }
  | { kind: 'contacts'; who: number[]; name: string }
  | { kind: 'slow'; list: number; pick: number; title: string; sleepMs: number }
  | { kind: 'rolledBack'; list: number; pick: number; who: number; title: string };

const title = fc.string({ minLength: 1, maxLength: 6 });
const list = fc.integer({ min: 0, max: 2 });
const pick = fc.nat(1000);
const who = fc.integer({ min: 0, max: 7 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), list, title }),
  fc.record({
    kind: fc.constant('addMany' as const),
    list,
    titles: fc.array(title, { minLength: 1, maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant('update' as const), pick, title }),
  fc.record({
    kind: fc.constant('updateMany' as const),
    picks: fc.array(pick, { minLength: 1, maxLength: 3 }),
    title,
  }),
  fc.record({ kind: fc.constant('delete' as const), pick }),
  fc.record({ kind: fc.constant('contact' as const), who, name: title }),
  fc.record({
    kind: fc.constant('contacts' as const),
    who: fc.uniqueArray(who, { minLength: 1, maxLength: 4 }),
    name: title,
  }),
  fc.record({
    kind: fc.constant('slow' as const),
    list,
    pick,
    title,
    sleepMs: fc.integer({ min: 5, max: 120 }),
  }),
  fc.record({ kind: fc.constant('rolledBack' as const), list, pick, who, title }),
);
const scenario = fc.array(fc.array(op, { minLength: 2, maxLength: 6 }), {
  minLength: WRITERS,
  maxLength: WRITERS,
});

let telegramBase = 9_000_000_000 + Math.floor(Math.random() * 1_000_000) * 100;

const t = testAppForFile({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });

class RollBack extends Error {}

/** One run: a fresh account, its writers and its reader; answers the replay and the truth. */
async function run(writers: Op[][]) {
  const me = await makeTenant(t.db);
  const key = { key: me.apiKey };
  const lists: string[] = [];
  for (let i = 0; i < 3; i++) {
    const l = await createListViaApi(t.app, me, [
      { slug: 'title', name: 'Title', type: 'string', is_required: false },
    ]);
    lists.push(l.id);
  }
  const telegram = telegramBase;
  telegramBase += 100;
  const items: { id: string; list: string }[] = [];
  const itemAt = (n: number) => items[n % Math.max(items.length, 1)];
  /** an item of `list`: a transaction spanning two lists could deadlock with another */
  const itemIn = (listId: string, n: number) => {
    const of = items.filter((i) => i.list === listId);
    return of[n % Math.max(of.length, 1)];
  };
  const ctx = { ...t.deps.lists, caller: { accountId: me.accountId } } as any;
  const contact = (w: number, name: string) => ({
    messenger: 'telegram',
    telegram_id: telegram + w,
    name,
  });

  async function perform(o: Op) {
    switch (o.kind) {
      case 'add': {
        const r = await call(
          t.app,
          'addListItem',
          { schema_id: lists[o.list], data: { title: o.title } },
          key,
        );
        if (r.status === 201) items.push({ id: r.body.data.id, list: lists[o.list]! });
        return;
      }
      case 'addMany': {
        const r = await call(
          t.app,
          'addListItems',
          { schema_id: lists[o.list], items: o.titles.map((x) => ({ title: x })) },
          key,
        );
        for (const out of r.body.data ?? [])
          items.push({ id: (out.data ?? out).id, list: lists[o.list]! });
        return;
      }
      case 'update': {
        const it = itemAt(o.pick);
        if (it)
          await call(t.app, 'updateListItem', { item_id: it.id, data: { title: o.title } }, key);
        return;
      }
      case 'updateMany': {
        const first = itemAt(o.picks[0]!);
        if (!first) return;
        const ids = [
          ...new Set(
            o.picks
              .map((p) => itemAt(p)!)
              .filter((i) => i.list === first.list)
              .map((i) => i.id),
          ),
        ];
        await call(
          t.app,
          'updateListItems',
          {
            schema_id: first.list,
            items: ids.map((id) => ({ item_id: id, data: { title: o.title } })),
          },
          key,
        );
        return;
      }
      case 'delete': {
        const it = itemAt(o.pick);
        if (it) await call(t.app, 'deleteListItem', { item_id: it.id }, key);
        return;
      }
      case 'contact':
        await call(
          t.app,
          'createOrUpdateContact',
          { bot_id: me.botId, ...contact(o.who, o.name) },
          key,
        );
        return;
      case 'contacts':
        await call(
          t.app,
          'createOrUpdateContacts',
          // ascending, as two batches locking the same contacts in opposite orders could deadlock
          {
            bot_id: me.botId,
            contacts: [...o.who].sort((a, b) => a - b).map((w) => contact(w, o.name)),
          },
          key,
        );
        return;
      case 'slow': {
        // writes first (its change takes a low seq), then holds the transaction open
        const it = itemIn(lists[o.list]!, o.pick);
        await t.db.transaction(async (tx) => {
          const inTx = listsOnTransaction(ctx, tx);
          const added = await addItem(inTx, lists[o.list]!, { title: o.title });
          if (it) await updateItem(inTx, it.id, { title: `${o.title}~` }).catch(() => undefined);
          await tx.execute(sql`select pg_sleep(${o.sleepMs / 1000})`);
          items.push({ id: String(added.toJSON().id), list: lists[o.list]! });
        });
        return;
      }
      case 'rolledBack': {
        const it = itemIn(lists[o.list]!, o.pick);
        await t.db
          .transaction(async (tx) => {
            const inTx = listsOnTransaction(ctx, tx);
            await addItem(inTx, lists[o.list]!, { title: `never ${o.title}` });
            if (it)
              await updateItem(inTx, it.id, { title: `never ${o.title}` }).catch(() => undefined);
            await upsertContact(tx, me.accountId, {
              botId: me.botId,
              messenger: 'telegram',
              messengerId: telegram + o.who,
              name: `never ${o.title}`,
            });
            throw new RollBack();
          })
          .catch((err: unknown) => {
            if (!(err instanceof RollBack)) throw err;
          });
        return;
      }
    }
  }

  // the reader follows the feed in small pages the whole time the writers run
  const seen: any[] = [];
  let cursor: string | undefined;
  let writing = true;
  const read = async () => {
    const r = await call(
      t.app,
      'getChanges',
      { limit: 7, ...(cursor ? { since: cursor } : {}) },
      key,
    );
    if (r.status !== 200) console.log(t.logs.filter((l) => l.includes('"level":50')).slice(-2));
    expect(r.status).toBe(200);
    seen.push(...r.body.data);
    cursor = r.body.meta.next_cursor;
    return r.body.meta.has_more as boolean;
  };
  const reader = (async () => {
    while (writing) await read();
  })();
  await Promise.all(
    writers.map(async (ops) => {
      for (const o of ops) await perform(o);
    }),
  );
  writing = false;
  await reader;
  while (await read());

  return { me, lists, seen };
}

/** What the events say the account holds: the last state of everything, deletes applied. */
function replay(seen: any[]) {
  const items = new Map<string, unknown>();
  const contacts = new Map<number, unknown>();
  for (const e of seen) {
    if (e.type === 'list_item.created' || e.type === 'list_item.updated')
      items.set(e.item_id, e.data);
    if (e.type === 'list_item.deleted') items.delete(e.item_id);
    if (e.type.startsWith('contact.')) contacts.set(e.contact_id, e.data);
  }
  return { items, contacts };
}

/** What the database holds, read through the API. */
async function truth(me: Tenant, lists: string[]) {
  const key = { key: me.apiKey };
  const items = new Map<string, unknown>();
  for (const schemaId of lists) {
    for (let page = 1; ; page++) {
      const r = await call(t.app, 'getListItems', { schema_id: schemaId, page, limit: 1000 }, key);
      for (const item of r.body.data) items.set(item.id, item);
      if (r.body.data.length < 1000) break;
    }
  }
  const r = await call(t.app, 'getContacts', { bot_id: me.botId, limit: 1000 }, key);
  const contacts = new Map<number, unknown>(r.body.data.map((c: any) => [c.id, c]));
  return { items, contacts };
}

describe('the change feed under concurrent writers', () => {
  it(`replays to exactly the database: no gap, no repeat, no rolled-back change (seed ${SEED})`, async () => {
    console.log(
      `change feed property: seed ${SEED}, ${RUNS} runs (FEED_SEED / FEED_RUNS to repeat)`,
    );
    await fc.assert(
      fc.asyncProperty(scenario, async (writers) => {
        const { me, lists, seen } = await run(writers);
        const ids = seen.map((e) => e.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(seen.some((e) => JSON.stringify(e.data ?? '').includes('never '))).toBe(false);
        const replayed = replay(seen);
        const actual = await truth(me, lists);
        expect(replayed.items).toEqual(actual.items);
        expect(replayed.contacts).toEqual(actual.contacts);
        expect(seen.filter((e) => e.type === 'list_schema.created')).toHaveLength(3);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  }, 240_000);
});
