import type { FastifyInstance } from 'fastify';
import { call, type CallResult } from '../helpers/call.js';
import type { Tenant } from '../helpers/factories.js';

/**
 * Eight clients of one tenant for the shard move test: six writers (addListItem, addListItems,
 * updateListItem, deleteListItem, createOrUpdateContact, in turn), a reader of a filtered page
 * with its total, and a reader following getChanges. Each writer changes only records it
 * created, one call at a time, so what it was told fixes what the database must hold; a call
 * answered 503 may or may not have been written, so both outcomes stay allowed.
 */
export interface Answer {
  method: string;
  status: number;
  sentAt: number;
  answeredAt: number;
  res: CallResult;
}

export interface MoveLoad {
  answers: Answer[];
  /** record id → the values of `n` the writes may have left; null: deleted */
  records: Map<string, Set<number | null>>;
  /** titles of records whose add was answered 503: stored or not */
  maybeAdded: Set<string>;
  /** telegram_id → name, for every acknowledged createOrUpdateContact */
  contacts: Map<number, string>;
  /** telegram_ids of createOrUpdateContact answered 503 */
  maybeContacts: Set<number>;
  /** every change the feed reader was given, in order */
  feed: { id: number; type: string; item_id?: string; contact_id?: number; data: unknown }[];
  /** stops issuing calls, waits for those in flight, and reads the feed to its head */
  stop(): Promise<void>;
}

export const WRITERS = 6;
const FILTER = { n: '>=,1' };

export function startMoveLoad(app: FastifyInstance, me: Tenant, listId: string): MoveLoad {
  const load: MoveLoad = {
    answers: [],
    records: new Map(),
    maybeAdded: new Set(),
    contacts: new Map(),
    maybeContacts: new Set(),
    feed: [],
    stop: async () => undefined,
  };
  const api = async (method: string, params: Record<string, unknown>) => {
    const sentAt = Date.now();
    const res = await call(app, method, params, { key: me.apiKey });
    load.answers.push({ method, status: res.status, sentAt, answeredAt: Date.now(), res });
    return res;
  };
  const written = (id: string, n: number | null, certain: boolean) => {
    const values = certain ? new Set<number | null>() : (load.records.get(id) ?? new Set());
    load.records.set(id, values.add(n));
  };
  let running = true;

  const writer = async (w: number) => {
    const mine: string[] = [];
    for (let i = 0; running; i++) {
      const title = `w${w}-${i}`;
      switch ((i + w) % 5) {
        case 0: {
          const res = await api('addListItem', { schema_id: listId, data: { title, n: 0 } });
          if (res.status === 201) written(res.body.data.id, 0, true);
          if (res.status === 201) mine.push(res.body.data.id);
          if (res.status === 503) load.maybeAdded.add(title);
          break;
        }
        case 1: {
          const titles = [0, 1, 2].map((k) => `${title}-${k}`);
          const items = titles.map((t) => ({ title: t, n: 0 }));
          const res = await api('addListItems', { schema_id: listId, items });
          if (res.status === 503) titles.forEach((t) => load.maybeAdded.add(t));
          if (res.status !== 201) break;
          for (const out of res.body.data) {
            written((out.data ?? out).id, 0, true);
            mine.push((out.data ?? out).id);
          }
          break;
        }
        case 2: {
          const id = mine[i % Math.max(mine.length, 1)];
          if (!id) break;
          const res = await api('updateListItem', { item_id: id, data: { n: i } });
          if (res.status === 200 || res.status === 503) written(id, i, res.status === 200);
          break;
        }
        case 3: {
          const id = mine.shift();
          if (!id) break;
          const res = await api('deleteListItem', { item_id: id });
          if (res.status < 300 || res.status === 503) written(id, null, res.status < 300);
          break;
        }
        case 4: {
          const telegramId = (w + 1) * 1_000_000 + i;
          const res = await api('createOrUpdateContact', {
            bot_id: me.botId,
            messenger: 'telegram',
            telegram_id: telegramId,
            name: title,
          });
          if (res.status === 200 || res.status === 201) load.contacts.set(telegramId, title);
          if (res.status === 503) load.maybeContacts.add(telegramId);
          break;
        }
      }
    }
  };
  const filteredReader = async () => {
    while (running) await api('getListItems', { schema_id: listId, filters: FILTER, limit: 1000 });
  };
  let cursor = '';
  /** one page of the feed; true when more had already committed */
  const readFeed = async () => {
    const res = await api('getChanges', { limit: 50, ...(cursor ? { since: cursor } : {}) });
    if (res.status !== 200) return true;
    load.feed.push(...res.body.data);
    cursor = res.body.meta.next_cursor;
    return res.body.meta.has_more as boolean;
  };
  const feedReader = async () => {
    while (running) await readFeed();
  };
  const clients = [
    ...Array.from({ length: WRITERS }, (_, w) => writer(w)),
    filteredReader(),
    feedReader(),
  ];
  load.stop = async () => {
    running = false;
    await Promise.all(clients);
    while (await readFeed());
  };
  return load;
}

/** The filter of the page reader, as a predicate on a record. */
export const inFilter = (record: { n: number }) => record.n >= 1;
