import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { queryRows, type Database } from '../../src/infra/db/client.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { timedCall, type Timed } from '../helpers/processes.js';

/**
 * Write load for the crash tests: addListItem and createOrUpdateContact
 * from many accounts, each write carrying a unique marker, so that afterwards every write
 * acknowledged with 200/201 can be looked up and checked intact and not duplicated.
 */
export interface LoadAccount {
  tenant: Tenant;
  listId: string;
}

export interface Attempt {
  kind: 'record' | 'contact';
  account: number;
  /** unique per attempt: the record's marker / the contact's telegram_id */
  seq: number;
  sentAt: number;
  /** the parameters sent (with `idempotency_key` in a keyed load) */
  params: Record<string, unknown>;
  result?: Timed;
}

/** The method an attempt called. */
export const methodOf = (a: Attempt) =>
  a.kind === 'record' ? 'addListItem' : 'createOrUpdateContact';

export const LOAD_FIELDS = [
  { name: 'Marker', slug: 'marker', type: 'string', is_required: true },
  { name: 'N', slug: 'n', type: 'number', is_required: false },
  { name: 'Secret', slug: 'secret', type: 'string', is_required: false, is_encryptable: true },
];

export async function makeLoadAccounts(db: Database, url: string, n: number) {
  const accounts: LoadAccount[] = [];
  for (let i = 0; i < n; i++) {
    const tenant = await makeTenant(db);
    const list = await timedCall(
      url,
      'createListSchema',
      { name: `Load ${i}`, project_uuid: tenant.projectUuid, fields: LOAD_FIELDS },
      tenant.apiKey,
    );
    expect(list.status, JSON.stringify(list.body)).toBe(201);
    accounts.push({ tenant, listId: list.body.data.id });
  }
  return accounts;
}

export interface Load {
  attempts: Attempt[];
  /** stops issuing and waits for the requests in flight */
  stop(): Promise<void>;
}

/** `workers` concurrent loops writing to `url()` (a function: the target may change). */
export function startWriteLoad(
  url: () => string,
  accounts: LoadAccount[],
  workers: number,
  firstSeq = 1,
  /** every write carries an idempotency key of its own (`k<seq>`) */
  keyed = false,
): Load {
  const attempts: Attempt[] = [];
  let running = true;
  let seq = firstSeq;
  const loop = async (w: number) => {
    for (let i = 0; running; i++) {
      const account = (w + i) % accounts.length;
      const { tenant, listId } = accounts[account]!;
      const n = seq++;
      const kind = n % 2 === 0 ? 'record' : 'contact';
      const params: Record<string, unknown> =
        kind === 'record'
          ? { schema_id: listId, data: { marker: `m${n}`, n, secret: `s${n}` } }
          : {
              bot_id: tenant.botId,
              messenger: 'telegram',
              telegram_id: n,
              name: `c${n}`,
              phone: `+1555${String(n).padStart(7, '0')}`,
            };
      if (keyed) params.idempotency_key = `k${n}`;
      const attempt: Attempt = { kind, account, seq: n, sentAt: Date.now(), params };
      attempts.push(attempt);
      attempt.result = await timedCall(url(), methodOf(attempt), params, tenant.apiKey);
    }
  };
  const loops = Array.from({ length: workers }, (_, w) => loop(w));
  return {
    attempts,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

export const acknowledged = (a: Attempt) =>
  a.result !== undefined && a.result.status >= 200 && a.result.status < 300;

/**
 * Every acknowledged write is present and intact (read back through the API, so the
 * encrypted value must still decrypt), no write is stored twice, and the counters kept
 * beside the rows (list item_count, bot subscriber_count) agree with the rows.
 */
export async function verifyWrites(
  db: Database,
  url: string,
  accounts: LoadAccount[],
  attempts: Attempt[],
) {
  const acked = attempts.filter(acknowledged);
  for (const [i, { tenant, listId }] of accounts.entries()) {
    const byMarker = new Map<string, { n: number; secret: string }[]>();
    let total: number | undefined;
    for (let page = 1; ; page++) {
      const items = await timedCall(
        url,
        'getListItems',
        { schema_id: listId, limit: 1000, page, order_by: 'created_at,asc' },
        tenant.apiKey,
      );
      expect(items.status).toBe(200);
      total = items.body.meta.total;
      for (const r of items.body.data as { marker: string; n: number; secret: string }[]) {
        byMarker.set(r.marker, [...(byMarker.get(r.marker) ?? []), r]);
      }
      if (items.body.data.length < 1000) break;
    }
    for (const [marker, copies] of byMarker)
      expect(copies, `${marker} stored twice`).toHaveLength(1);
    for (const a of acked.filter((x) => x.kind === 'record' && x.account === i)) {
      const [stored] = byMarker.get(`m${a.seq}`) ?? [];
      expect(stored, `acknowledged record m${a.seq} is missing`).toBeDefined();
      expect(stored).toMatchObject({ n: a.seq, secret: `s${a.seq}`, id: a.result!.body.data.id });
    }
    expect(total).toBe(byMarker.size);
    const [counted] = await queryRows<{ stored: number; counter: number }>(
      db,
      sql`SELECT (SELECT count(*) FROM list_items WHERE schema_id = ${listId})::int AS stored,
                 item_count AS counter FROM list_schemas WHERE id = ${listId}`,
    );
    expect(Number(counted!.counter)).toBe(Number(counted!.stored));

    const contacts = await queryRows<{
      id: number;
      telegram_id: number;
      name: string;
      phone: string;
    }>(db, sql`SELECT id, telegram_id, name, phone FROM contacts WHERE bot_id = ${tenant.botId}`);
    const byTelegram = new Map(contacts.map((c) => [Number(c.telegram_id), c]));
    expect(byTelegram.size, 'a contact stored twice').toBe(contacts.length);
    for (const a of acked.filter((x) => x.kind === 'contact' && x.account === i)) {
      const stored = byTelegram.get(a.seq);
      expect(stored, `acknowledged contact ${a.seq} is missing`).toBeDefined();
      // int8 arrives as text through drizzle's raw execute
      expect({ ...stored, id: Number(stored!.id) }).toMatchObject({
        id: a.result!.body.data.id,
        name: `c${a.seq}`,
        phone: `1555${String(a.seq).padStart(7, '0')}`,
      });
    }
    const [bot] = await queryRows<{ subscribers: number }>(
      db,
      sql`SELECT subscriber_count AS subscribers FROM bots WHERE id = ${tenant.botId}`,
    );
    expect(Number(bot!.subscribers)).toBe(contacts.length);
  }
  return { acked: acked.length };
}
