import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { purgeExpiredKeys } from '../../src/idempotency/storedAnswerPurge.js';
import { queryRows } from '../../src/infra/db/client.js';
import { call, TRANSPORTS } from '../helpers/call.js';
import { itemCount } from '../helpers/lists.js';
import { MANY_CALLS, testAppForFile } from '../helpers/testAppForFile.js';
import { createListViaApi } from '../helpers/viaApi.js';

let serial = 0;

const t = testAppForFile({ env: MANY_CALLS, tenants: ['owner', 'other'], listen: true });

const FIELDS = [{ name: 'Title', slug: 'title', type: 'string' }];
const newKey = () => `key-${Date.now()}-${serial++}`;
const keyed = (key: string) => ({ headers: { 'idempotency-key': key } });

async function storedKeys(ownerId: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from idempotency_keys where owner_id = ${ownerId}`,
  );
  return row!.n;
}

describe('Idempotency-Key on a method that changes data', () => {
  it.each(TRANSPORTS)('replays the first answer byte for byte via %s', async (via) => {
    const list = await createListViaApi(t.app, t.owner, FIELDS);
    const key = newKey();
    const params = { schema_id: list.id, data: { title: 'once' } };
    const first = await call(t.app, 'addListItem', params, {
      key: t.owner.apiKey,
      via,
      ...keyed(key),
    });
    const again = await call(t.app, 'addListItem', params, {
      key: t.owner.apiKey,
      via,
      ...keyed(key),
    });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.raw.body).toBe(first.raw.body);
    expect(await itemCount(t.db, list.id)).toBe(1);
  });

  it('replays the batch methods too, writing once', async () => {
    const list = await createListViaApi(t.app, t.owner, FIELDS);
    const twice = async (method: string, params: Record<string, unknown>) => {
      const key = newKey();
      const first = await call(t.app, method, params, { key: t.owner.apiKey, ...keyed(key) });
      const again = await call(t.app, method, params, { key: t.owner.apiKey, ...keyed(key) });
      expect(first.status).toBeLessThan(300);
      expect([again.status, again.headers['idempotent-replayed']]).toEqual([first.status, 'true']);
      expect(again.raw.body).toBe(first.raw.body);
      return first;
    };
    const added = await twice('addListItems', {
      schema_id: list.id,
      items: [{ title: 'a' }, { title: 'b' }],
    });
    expect(await itemCount(t.db, list.id)).toBe(2);
    const [a, b] = added.body.data.map((r: { id: string }) => r.id);
    await twice('updateListItems', {
      schema_id: list.id,
      items: [{ item_id: a, data: { title: 'A' } }],
    });
    await twice('deleteListItems', { schema_id: list.id, item_ids: [b] });
    expect(await itemCount(t.db, list.id)).toBe(1);
    const contacts = [{ messenger: 'telegram', telegram_id: 4_242_001, name: 'Batch' }];
    const upserted = await twice('createOrUpdateContacts', { bot_id: t.owner.botId, contacts });
    expect(upserted.body.data[0].status).toBe(201);
  });

  it('takes the key from the idempotency_key parameter when no header is sent', async () => {
    const list = await createListViaApi(t.app, t.owner, FIELDS);
    const params = { schema_id: list.id, data: { title: 'form' }, idempotency_key: newKey() };
    const first = await call(t.app, 'addListItem', params, { key: t.owner.apiKey, via: 'form' });
    const again = await call(t.app, 'addListItem', params, { key: t.owner.apiKey, via: 'form' });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    expect(await itemCount(t.db, list.id)).toBe(1);
  });

  it('answers 422 under idempotency_key for the same key with other parameters or method', async () => {
    const list = await createListViaApi(t.app, t.owner, FIELDS);
    const key = newKey();
    const ok = await call(
      t.app,
      'addListItem',
      { schema_id: list.id, data: { title: 'a' } },
      { key: t.owner.apiKey, ...keyed(key) },
    );
    expect(ok.status).toBe(201);
    const otherBody = await call(
      t.app,
      'addListItem',
      { schema_id: list.id, data: { title: 'b' } },
      { key: t.owner.apiKey, ...keyed(key) },
    );
    expect(otherBody.status).toBe(422);
    expect(Object.keys(otherBody.body.errors)).toEqual(['idempotency_key']);
    const otherMethod = await call(
      t.app,
      'deleteListItem',
      { item_id: ok.body.data.id },
      { key: t.owner.apiKey, ...keyed(key) },
    );
    expect(otherMethod.status).toBe(422);
    expect(await itemCount(t.db, list.id)).toBe(1);
  });

  it('matches parameters whatever the order of their keys', async () => {
    const list = await createListViaApi(t.app, t.owner, [
      ...FIELDS,
      { name: 'N', slug: 'n', type: 'number' },
    ]);
    const key = newKey();
    const a = await call(
      t.app,
      'addListItem',
      { schema_id: list.id, data: { title: 'x', n: 1 } },
      { key: t.owner.apiKey, ...keyed(key) },
    );
    const b = await call(
      t.app,
      'addListItem',
      { data: { n: 1, title: 'x' }, schema_id: list.id },
      { key: t.owner.apiKey, ...keyed(key) },
    );
    expect([a.status, b.status, b.headers['idempotent-replayed']]).toEqual([201, 201, 'true']);
  });

  it('keeps the keys of two accounts apart', async () => {
    const mine = await createListViaApi(t.app, t.owner, FIELDS);
    const theirs = await createListViaApi(t.app, t.other, FIELDS);
    const key = newKey();
    const a = await call(
      t.app,
      'addListItem',
      { schema_id: mine.id, data: { title: 'a' } },
      { key: t.owner.apiKey, ...keyed(key) },
    );
    const b = await call(
      t.app,
      'addListItem',
      { schema_id: theirs.id, data: { title: 'b' } },
      { key: t.other.apiKey, ...keyed(key) },
    );
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.body.data.title).toBe('b');
  });

  it('stores a 404 or 422 and replays it, but not a 403', async () => {
    const key404 = newKey();
    const missing = { item_id: '01900000-0000-7000-8000-000000000000', data: { title: 'x' } };
    const a = await call(t.app, 'updateListItem', missing, {
      key: t.owner.apiKey,
      ...keyed(key404),
    });
    const b = await call(t.app, 'updateListItem', missing, {
      key: t.owner.apiKey,
      ...keyed(key404),
    });
    expect([a.status, b.status, b.headers['idempotent-replayed']]).toEqual([404, 404, 'true']);
    expect(b.raw.body).toBe(a.raw.body);

    const theirs = await createListViaApi(t.app, t.other, FIELDS);
    const before = await storedKeys(t.owner.accountId);
    const denied = await call(
      t.app,
      'addListItem',
      { schema_id: theirs.id, data: { title: 'x' } },
      { key: t.owner.apiKey, ...keyed(newKey()) },
    );
    expect(denied.status).toBe(403);
    expect(await storedKeys(t.owner.accountId)).toBe(before);
  });

  it('writes nothing of a request that fails validation, and replays the 422', async () => {
    const list = await createListViaApi(t.app, t.owner, [
      { name: 'Need', slug: 'need', type: 'number', is_required: true },
    ]);
    const key = newKey();
    const params = { schema_id: list.id, data: {} };
    const a = await call(t.app, 'addListItem', params, { key: t.owner.apiKey, ...keyed(key) });
    const b = await call(t.app, 'addListItem', params, { key: t.owner.apiKey, ...keyed(key) });
    expect([a.status, b.status]).toEqual([422, 422]);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(await itemCount(t.db, list.id)).toBe(0);
  });

  it.each([
    ['', 'empty'],
    ['a b', 'a space'],
    ['é', 'not ASCII'],
    ['k'.repeat(256), '256 characters'],
  ])('refuses a malformed key (%j: %s) with 422 and writes nothing', async (key) => {
    const list = await createListViaApi(t.app, t.owner, FIELDS);
    const res = await call(
      t.app,
      'addListItem',
      { schema_id: list.id, data: { title: 'x' }, idempotency_key: key },
      { key: t.owner.apiKey },
    );
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['idempotency_key']);
    expect(await itemCount(t.db, list.id)).toBe(0);
  });

  it('ignores a key on a read', async () => {
    const list = await createListViaApi(t.app, t.owner, FIELDS);
    const before = await storedKeys(t.owner.accountId);
    const res = await call(
      t.app,
      'getListItems',
      { schema_id: list.id },
      { key: t.owner.apiKey, ...keyed(newKey()) },
    );
    expect(res.status).toBe(200);
    expect(await storedKeys(t.owner.accountId)).toBe(before);
  });

  it('forgets an answer once it expires, and the purge deletes it', async () => {
    const list = await createListViaApi(t.app, t.owner, FIELDS);
    const key = newKey();
    const params = { schema_id: list.id, data: { title: 'old' } };
    await call(t.app, 'addListItem', params, { key: t.owner.apiKey, ...keyed(key) });
    await t.db.execute(
      sql`update idempotency_keys set expires_at = now() - interval '1 second' where key = ${key}`,
    );
    const again = await call(t.app, 'addListItem', params, { key: t.owner.apiKey, ...keyed(key) });
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await itemCount(t.db, list.id)).toBe(2);
    await t.db.execute(
      sql`update idempotency_keys set expires_at = now() - interval '1 second' where key = ${key}`,
    );
    expect(await purgeExpiredKeys(t.db)).toBeGreaterThanOrEqual(1);
    const [row] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from idempotency_keys where key = ${key}`,
    );
    expect(row!.n).toBe(0);
  });
});

describe('50 concurrent requests with one key', () => {
  const fire = (method: string, params: Record<string, unknown>, key: string) =>
    Promise.all(
      Array.from({ length: 50 }, () =>
        fetch(`${t.baseUrl}/api/v1/${method}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${t.owner.apiKey}`,
            accept: 'application/json',
            'content-type': 'application/json',
            'idempotency-key': key,
          },
          body: JSON.stringify(params),
        }).then(async (r) => ({
          status: r.status,
          retryAfter: r.headers.get('retry-after'),
          text: await r.text(),
        })),
      ),
    );

  it('addListItem (the key stored by the insert itself): one write, every answer the original', async () => {
    const list = await createListViaApi(t.app, t.owner, FIELDS);
    const params = { schema_id: list.id, data: { title: 'race' } };
    const answers = await fire('addListItem', params, newKey());
    expect(await itemCount(t.db, list.id)).toBe(1);
    // a repeat waits for the first's one statement, then replays: no 409 on this path
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(201));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
  });

  it('createOrUpdateContact (a keyed transaction): one write, the original answer or 409 with Retry-After', async () => {
    const key = newKey();
    const params = {
      bot_id: t.owner.botId,
      messenger: 'telegram',
      telegram_id: 777_000_001,
      name: 'Race',
    };
    const answers = await fire('createOrUpdateContact', params, key);
    const created = answers.filter((a) => a.status === 201);
    const busy = answers.filter((a) => a.status === 409);
    expect(created.length + busy.length).toBe(50);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((a) => a.text)).size).toBe(1);
    for (const b of busy) expect(b.retryAfter).toBe('1');
    const [row] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from contacts where bot_id = ${t.owner.botId} and telegram_id = 777000001`,
    );
    expect(row!.n).toBe(1);
    // once the first has finished, a retry gets the original answer (201, not 200 "updated")
    const retry = await call(t.app, 'createOrUpdateContact', params, {
      key: t.owner.apiKey,
      ...keyed(key),
    });
    expect([retry.status, retry.raw.body]).toEqual([201, created[0]!.text]);
  });
});
