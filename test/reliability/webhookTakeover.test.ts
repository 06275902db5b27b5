import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/infra/db/client.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { callHttp, ensureBuilt, startServer, type ServerProcess } from '../helpers/processes.js';
import { TEST_ENCRYPTION_KEY } from '../helpers/testApp.js';
import { startReceiver, verifySignature, type Receiver } from '../helpers/webhookReceiver.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Two instances deliver one webhook while records are written through both; the instance
 * delivering it is SIGKILLed mid-stream. The receiver must still get every change, in feed
 * order, with only the batch that was in flight sent twice (same webhook-id, same body).
 */
let database: TestDatabase;
let servers: ServerProcess[] = [];
let receiver: Receiver;
let me: Tenant;

beforeAll(async () => {
  await ensureBuilt();
  database = await createTestDatabase();
  const env = {
    DATABASE_URL: database.url,
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    RATE_LIMIT_PER_MINUTE: '100000000',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_LEASE_SECONDS: '11',
    LOG_LEVEL: 'error',
  };
  servers = await Promise.all([startServer(env), startServer(env)]);
  me = await makeTenant(database.handle.db);
  receiver = await startReceiver();
  // each batch stays in flight a while, so the kill is likely to cut one off
  receiver.answer = { status: 200, delayMs: 150 };
}, 180_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await receiver?.close();
  await database?.drop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('webhook delivery when the delivering instance dies', () => {
  it('another instance takes over: every change arrives, in order, only the batch in flight twice', async () => {
    const hook = await callHttp(servers[0]!.url, 'createWebhook', { url: receiver.url }, me.apiKey);
    expect(hook.status).toBe(201);
    const list = await callHttp(
      servers[1]!.url,
      'createListSchema',
      {
        name: 'Takeover',
        project_uuid: me.projectUuid,
        fields: [{ slug: 'n', name: 'N', type: 'number', is_required: false }],
      },
      me.apiKey,
    );
    expect(list.status).toBe(201);

    const live = [...servers];
    let writing = true;
    let written = 0;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const server = live[i % live.length]!;
        const res = await callHttp(
          server.url,
          'addListItems',
          { schema_id: list.body.data.id, items: [{ n: i }, { n: -i }] },
          me.apiKey,
        ).catch(() => undefined);
        if (res?.status === 201) written++;
      }
    })();

    // kill whichever instance holds the webhook's lease while it delivers
    let killed: ServerProcess | undefined;
    for (const deadline = Date.now() + 20_000; !killed && Date.now() < deadline;) {
      await sleep(50);
      if (receiver.received.length < 2) continue;
      const [row] = await queryRows<{ leased_by: string | null }>(
        database.handle.db,
        sql`select leased_by from webhooks`,
      );
      const holder = servers.find((s) => row?.leased_by?.endsWith(`:${s.child.pid}`));
      if (holder) {
        killed = holder;
        live.splice(live.indexOf(holder), 1);
        holder.child.kill('SIGKILL');
      }
    }
    expect(killed).toBeDefined();
    expect(await killed!.exited).toEqual({ code: null, signal: 'SIGKILL' });
    await sleep(1_500);
    writing = false;
    await writer;
    expect(written).toBeGreaterThan(10);

    // the whole feed, as getChanges gives it
    const feed: any[] = [];
    let since: string | undefined;
    for (;;) {
      const res = await callHttp(
        live[0]!.url,
        'getChanges',
        { limit: 1000, ...(since ? { since } : {}) },
        me.apiKey,
      );
      feed.push(...res.body.data);
      since = res.body.meta.next_cursor;
      if (!res.body.meta.has_more) break;
    }
    // the survivor takes over once the dead instance's lease (11 s) has run out
    const delivered = () => {
      const seen = new Set<string>();
      const changes: any[] = [];
      for (const m of receiver.received) {
        const id = String(m.headers['webhook-id']);
        if (seen.has(id)) continue;
        seen.add(id);
        changes.push(...JSON.parse(m.body).data);
      }
      return changes;
    };
    for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
      if (delivered().length >= feed.length) break;
      await sleep(200);
    }
    expect(delivered().map((c) => c.id)).toEqual(feed.map((c) => c.id));
    expect(delivered()).toEqual(feed);

    const secret = hook.body.data.secret as string;
    for (const m of receiver.received) expect(verifySignature(secret, m)).toBe(true);
    // a repeat is only ever the batch just before it, byte for byte
    const ids = receiver.received.map((m) => String(m.headers['webhook-id']));
    const repeats = ids.filter((id, i) => ids.indexOf(id) !== i);
    console.log(
      `takeover: ${feed.length} changes in ${new Set(ids).size} batches, ${repeats.length} sent again`,
    );
    expect(new Set(repeats).size).toBeLessThanOrEqual(1);
    for (let i = 1; i < ids.length; i++) {
      if (ids.indexOf(ids[i]!) !== i) {
        expect(ids[i - 1]).toBe(ids[i]);
        expect(receiver.received[i]!.body).toBe(receiver.received[i - 1]!.body);
      }
    }
  }, 120_000);
});
