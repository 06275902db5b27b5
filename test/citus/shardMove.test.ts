import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/infra/db/client.js';
import { call } from '../helpers/call.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { testAppForFile } from '../helpers/testAppForFile.js';
import { createListViaApi } from '../helpers/viaApi.js';
import {
  cleanUpMoves,
  moveGroup,
  nextXid,
  nodeUrl,
  oneShardCopyAtATime,
  putAhead,
  shardsOf,
  workerPorts,
} from './shardPlacement.js';
import { inFilter, startMoveLoad, type MoveLoad } from './shardMoveLoad.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * A tenant's shard group moves to the other worker while eight clients write and read it
 * (run only with TEST_CITUS_URL, vitest.config.ts). The hard case for the change feed
 * (docs/scaling.md, "Shard moves"): the source worker's transaction ids are ahead of the
 * target's, so without moveShardGroup's raising of the target's a
 * change written after the move would look older than the readers' cursors. Afterwards: no
 * acknowledged write lost or doubled, counters equal to counts, no 500, every refusal a 503
 * with Retry-After, and the feed read throughout, replayed, equal to the database.
 */
const t = testAppForFile({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });

/** transaction ids the source is put ahead of the target by, before the move */
const XID_LEAD = 30_000;
const SECONDS_BEFORE = 1.5;
const SECONDS_AFTER = 2;
const sleep = (s: number) => new Promise((r) => setTimeout(r, s * 1000));

/** A tenant whose shards all live on the first worker (the move's source). */
async function tenantOnLeadingWorker(): Promise<{ me: Tenant; from: number; to: number }> {
  const [from, to] = workerPorts();
  for (let i = 0; i < 40; i++) {
    const me = await makeTenant(t.db);
    const shards = await shardsOf(t.db, me.accountId);
    if (shards.every((s) => s.port === from)) return { me, from: from!, to: to! };
  }
  throw new Error('no tenant landed on the leading worker');
}

describe('a tenant whose shard group moves to another worker under load', () => {
  it(
    'loses, doubles and refuses nothing but with 503, and its feed replays to the database',
    () => oneShardCopyAtATime(moveUnderLoad),
    180_000,
  );
});

async function moveUnderLoad() {
  const { me, from, to } = await tenantOnLeadingWorker();
  const list = await createListViaApi(t.app, me, [
    { slug: 'title', name: 'Title', type: 'string', is_required: false },
    { slug: 'n', name: 'N', type: 'number', is_required: false },
  ]);
  const [source, target] = [from, to].map((p) => nodeUrl(t.database.name, p));

  const load = startMoveLoad(t.app, me, list.id);
  let moveStart: number | undefined;
  let moveEnd: number | undefined;
  // the clients stop whatever happens, so a failure is reported as itself
  try {
    await sleep(SECONDS_BEFORE);
    await putAhead(source!, target!, XID_LEAD);
    const before = await Promise.all([source!, target!].map(nextXid));
    // the case under test: the source's transaction ids are ahead of the target's
    expect(before[0]!).toBeGreaterThan(before[1]!);

    const [bots] = (await shardsOf(t.db, me.accountId)).filter((s) => s.table === 'bots');
    moveStart = Date.now();
    await moveGroup(t.database.url, bots!.shardid, from, to, 20_000);
    moveEnd = Date.now();
    await sleep(SECONDS_AFTER);
  } finally {
    await load.stop();
    await cleanUpMoves(t.database.url);
  }

  expect((await shardsOf(t.db, me.accountId)).every((s) => s.port === to)).toBe(true);
  report(load, moveStart!, moveEnd!);
  checkAnswers(load);
  const items = await storedItems(me, list.id);
  checkRecords(load, items);
  await checkCounts(me, list.id, items);
  await checkContacts(load, me);
  await checkFeed(load, me, items);
}

/** The figures of the run: calls per method and status, 503s, the move, writes during it. */
function report(load: MoveLoad, moveStart: number, moveEnd: number) {
  const byMethod: Record<string, Record<number, number>> = {};
  for (const a of load.answers) {
    byMethod[a.method] ??= {};
    byMethod[a.method]![a.status] = (byMethod[a.method]![a.status] ?? 0) + 1;
  }
  const writesDuringMove = load.answers.filter(
    (a) =>
      !a.method.startsWith('get') &&
      a.status < 300 &&
      a.answeredAt >= moveStart &&
      a.answeredAt <= moveEnd,
  ).length;
  console.log(
    JSON.stringify({
      calls: load.answers.length,
      byMethod,
      unavailable: load.answers.filter((a) => a.status === 503).length,
      moveMs: moveEnd - moveStart,
      writesAcknowledgedDuringMove: writesDuringMove,
      changesRead: load.feed.length,
    }),
  );
}

/** No 500; a refusal only as the catalog's 503 with Retry-After. */
function checkAnswers(load: MoveLoad) {
  for (const a of load.answers) {
    if (a.status === 503) {
      expect(a.res.headers['retry-after']).toMatch(/^\d+$/);
      expect(a.res.body).toEqual({ error: 'service_unavailable', message: expect.any(String) });
    } else {
      expect([200, 201, 204], `${a.method}: ${JSON.stringify(a.res.body)}`).toContain(a.status);
    }
  }
}

/** The list's records, read through the API after the run. */
async function storedItems(me: Tenant, listId: string): Promise<any[]> {
  const items: any[] = [];
  for (let page = 1; ; page++) {
    const params = { schema_id: listId, limit: 1000, page, order_by: 'created_at,asc' };
    const res = await call(t.app, 'getListItems', params, { key: me.apiKey });
    expect(res.status).toBe(200);
    items.push(...res.body.data);
    if (res.body.data.length < 1000) {
      expect(res.body.meta.total).toBe(items.length);
      return items;
    }
  }
}

/** Every acknowledged record write is there, once, with a value a write left. */
function checkRecords(load: MoveLoad, items: any[]) {
  const titles = items.map((i) => i.title);
  expect(new Set(titles).size, 'a record stored twice').toBe(titles.length);
  const stored = new Map(items.map((i) => [i.id as string, i]));
  for (const item of items) {
    const allowed = load.records.get(item.id);
    if (allowed) expect([...allowed], `record ${item.title}`).toContain(item.n);
    else expect(load.maybeAdded.has(item.title), `record ${item.title} never written`).toBe(true);
  }
  for (const [id, allowed] of load.records) {
    if (!allowed.has(null)) expect(stored.has(id), `acknowledged record ${id} lost`).toBe(true);
  }
}

/** The list's counter, its total and a filtered total equal a recount. */
async function checkCounts(me: Tenant, listId: string, items: any[]) {
  const [row] = await queryRows<{ counter: number; stored: number }>(
    t.db,
    sql`select item_count::int as counter,
          (select count(*)::int from list_items where owner_id = ${me.accountId}
             and schema_id = ${listId}) as stored
        from list_schemas where owner_id = ${me.accountId} and id = ${listId}`,
  );
  expect(row).toEqual({ counter: items.length, stored: items.length });
  const filtered = await call(
    t.app,
    'getListItems',
    { schema_id: listId, filters: { n: '>=,1' }, limit: 1 },
    { key: me.apiKey },
  );
  expect(filtered.body.meta.total).toBe(items.filter(inFilter).length);
}

/** Every acknowledged contact is there once, and the bot counts each. */
async function checkContacts(load: MoveLoad, me: Tenant) {
  const rows = await queryRows<{ telegram_id: string; name: string }>(
    t.db,
    sql`select telegram_id::text, name from contacts
        where owner_id = ${me.accountId} and bot_id = ${me.botId}`,
  );
  const byId = new Map(rows.map((r) => [Number(r.telegram_id), r.name]));
  expect(byId.size, 'a contact stored twice').toBe(rows.length);
  for (const [telegramId, name] of load.contacts) expect(byId.get(telegramId)).toBe(name);
  for (const telegramId of byId.keys())
    expect(load.contacts.has(telegramId) || load.maybeContacts.has(telegramId)).toBe(true);
  const [bot] = await queryRows<{ n: number }>(
    t.db,
    sql`select subscriber_count::int as n from bots where owner_id = ${me.accountId} and id = ${me.botId}`,
  );
  expect(bot!.n).toBe(rows.length);
}

/** The feed, read across the move: each change once, and replayed, the database. */
async function checkFeed(load: MoveLoad, me: Tenant, items: any[]) {
  const ids = load.feed.map((e) => e.id);
  expect(new Set(ids).size, 'a change read twice').toBe(ids.length);
  const [stored] = await queryRows<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from changes where account_id = ${me.accountId}`,
  );
  expect(load.feed.length, 'changes never read').toBe(stored!.n);
  const records = new Map<string, unknown>();
  const contacts = new Map<number, unknown>();
  for (const e of load.feed) {
    if (e.type === 'list_item.deleted') records.delete(e.item_id!);
    else if (e.type.startsWith('list_item.')) records.set(e.item_id!, e.data);
    else if (e.type.startsWith('contact.')) contacts.set(e.contact_id!, (e.data as any).name);
  }
  expect(records).toEqual(new Map(items.map((i) => [i.id, i])));
  const names = await queryRows<{ id: string; name: string }>(
    t.db,
    sql`select id::text, name from contacts where owner_id = ${me.accountId}`,
  );
  expect(contacts).toEqual(new Map(names.map((c) => [Number(c.id), c.name])));
}
