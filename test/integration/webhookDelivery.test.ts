import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/infra/db/client.js';
import {
  startWebhookDelivery,
  type DeliveryOptions,
  type DeliveryWorker,
} from '../../src/webhooks/deliveryWorker.js';
import { WebhookStats } from '../../src/webhooks/stats.js';
import { call } from '../helpers/call.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { createListViaApi } from '../helpers/viaApi.js';
import { startReceiver, verifySignature, type Receiver } from '../helpers/webhookReceiver.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Webhook delivery against real receivers on this machine, the worker driven tick by tick on
 * an injected clock (so 24 hours pass in a moment).
 */
// Starts at the real time: the changes' times come from the database's clock, and a clock
// fixed on a past day falls behind them (the oldest waiting change then looked 0 s old).
// (whole seconds, as the webhook-timestamp header has them)
let now = new Date(Math.ceil(Date.now() / 1000) * 1000);
const clock = () => now;
let t: TestApp;
const receivers: Receiver[] = [];
const workers: DeliveryWorker[] = [];

beforeAll(async () => {
  t = await startTestApp({
    clock,
    env: { RATE_LIMIT_PER_MINUTE: '100000', WEBHOOK_ALLOW_PRIVATE: 'true' },
  });
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  // a worker serves every webhook in the database: each test starts with none
  await t.db.execute(sql`delete from webhooks`);
});
afterAll(() => t.close());

async function receiver() {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

function worker(options: Partial<DeliveryOptions> = {}, stats = t.deps.webhookStats) {
  const w = startWebhookDelivery({ ...t.deps.lists, db: t.db, clock, stats }, console, {
    instance: 'test-a',
    allowPrivate: true,
    leaseMs: 30_000,
    pollMs: 3_600_000, // ticks are driven by the test
    random: () => 1,
    ...options,
  });
  workers.push(w);
  return w;
}

async function hook(tenant: Tenant, url: string, params: Record<string, unknown> = {}) {
  const res = await call(t.app, 'createWebhook', { url, ...params }, { key: tenant.apiKey });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; secret: string };
}

async function status(tenant: Tenant, id: string) {
  const res = await call(t.app, 'getWebhooks', {}, { key: tenant.apiKey });
  return res.body.data.find((h: any) => h.id === id);
}

const changesIn = (r: Receiver) => r.received.flatMap((m) => JSON.parse(m.body).data);

/** Every change of the tenant in feed order, read through getChanges. */
async function feed(tenant: Tenant) {
  const all: any[] = [];
  let since: string | undefined;
  for (;;) {
    const res = await call(
      t.app,
      'getChanges',
      { limit: 1000, ...(since ? { since } : {}) },
      { key: tenant.apiKey },
    );
    all.push(...res.body.data);
    since = res.body.meta.next_cursor;
    if (!res.body.meta.has_more) return all;
  }
}

async function newListWithItems(tenant: Tenant, n: number) {
  const list = await createListViaApi(t.app, tenant, [
    { slug: 'title', name: 'T', type: 'string', is_required: false },
  ]);
  const res = await call(
    t.app,
    'addListItems',
    { schema_id: list.id, items: Array.from({ length: n }, (_, i) => ({ title: `t${i}` })) },
    { key: tenant.apiKey },
  );
  expect(res.status).toBe(201);
  return list;
}

describe('webhook delivery', () => {
  it('POSTs every change after its creation, in feed order, in signed batches of up to 100', async () => {
    const me = await makeTenant(t.db);
    await createListViaApi(t.app, me, [{ slug: 'x', name: 'X', type: 'string' }]); // before: not sent
    const r = await receiver();
    const h = await hook(me, r.url);
    await newListWithItems(me, 150);
    const w = worker();
    for (let i = 0; i < 5; i++) await w.tick();
    expect(r.received.map((m) => JSON.parse(m.body).data.length)).toEqual([100, 51]);
    for (const message of r.received) {
      expect(verifySignature(h.secret, message)).toBe(true);
      expect(message.headers['content-type']).toBe('application/json');
      expect(message.headers['webhook-timestamp']).toBe(String(now.getTime() / 1000));
      expect(JSON.parse(message.body)).toMatchObject({ type: 'changes' });
    }
    expect(verifySignature('whsec_' + Buffer.alloc(24).toString('base64'), r.received[0]!)).toBe(
      false,
    );
    // exactly the feed after the webhook was made, in the same order and shapes
    const all = await feed(me);
    expect(changesIn(r)).toEqual(all.slice(1));
    expect(new Set(r.received.map((m) => m.headers['webhook-id'])).size).toBe(2);
    expect(await status(me, h.id)).toMatchObject({ status: 'active', last_error: null });
  });

  it('retries the same batch after a failure, with the same id, until the receiver takes it', async () => {
    const me = await makeTenant(t.db);
    const r = await receiver();
    const h = await hook(me, r.url);
    await newListWithItems(me, 3);
    r.answer = { status: 500 };
    const w = worker();
    await w.tick();
    expect(r.received).toHaveLength(1);
    const failing = await status(me, h.id);
    expect(failing).toMatchObject({ status: 'failing', last_error: '500: receiver says no' });
    expect(failing.failing_since).toBe(now.toISOString());
    // not due yet: the backoff holds it back
    await w.tick();
    expect(r.received).toHaveLength(1);
    // more changes meanwhile do not change the batch being retried
    await newListWithItems(me, 2);
    now = new Date(now.getTime() + 1_000);
    r.answer = { status: 204 };
    await w.tick();
    // the retried batch, then (in the same round) the batch of the changes made meanwhile
    expect(r.received).toHaveLength(3);
    expect(r.received[1]!.headers['webhook-id']).toBe(r.received[0]!.headers['webhook-id']);
    expect(r.received[1]!.body).toBe(r.received[0]!.body);
    expect(await status(me, h.id)).toMatchObject({ status: 'active', failing_since: null });
    // the failed try, its retry, then the next batch: the feed, once, in order
    expect(changesIn(r).slice(4)).toEqual(await feed(me));
  });

  it('keeps a receiver that was down: delivered once it is back', async () => {
    const me = await makeTenant(t.db);
    const r = await receiver();
    const url = r.url;
    await r.close();
    const h = await hook(me, url);
    await newListWithItems(me, 2);
    const w = worker();
    await w.tick();
    expect((await status(me, h.id)).last_error).toMatch(/ECONNREFUSED/);
    // the same address up again
    const back = await startReceiver(Number(new URL(url).port));
    now = new Date(now.getTime() + 2_000);
    await w.tick();
    expect(changesIn(back)).toHaveLength(3);
    await back.close();
  });

  it('disables a webhook failing for 24 hours, and says why and since when', async () => {
    const me = await makeTenant(t.db);
    const r = await receiver();
    r.answer = { status: 503 };
    const h = await hook(me, r.url);
    await newListWithItems(me, 1);
    const w = worker();
    const started = now;
    await w.tick();
    let attempts = 1;
    while ((await status(me, h.id)).status !== 'disabled') {
      const [row] = await queryRows<{ next: Date }>(
        t.db,
        sql`select next_attempt_at as next from webhooks where id = ${h.id}`,
      );
      now = new Date(row!.next);
      await w.tick();
      attempts++;
      expect(attempts).toBeLessThan(60);
    }
    const off = await status(me, h.id);
    expect(now.getTime() - started.getTime()).toBeGreaterThanOrEqual(24 * 3_600_000);
    expect(off).toMatchObject({
      status: 'disabled',
      failing_since: started.toISOString(),
      disabled_at: now.toISOString(),
    });
    expect(off.disabled_reason).toBe(
      `failing since ${started.toISOString().slice(0, 19)}Z: 503: receiver says no`,
    );
    // the waits grew: far fewer attempts than one a minute
    expect(attempts).toBeLessThan(40);
    const sent = r.received.length;
    now = new Date(now.getTime() + 86_400_000);
    await w.tick();
    expect(r.received).toHaveLength(sent);
  });

  it('refuses to deliver to a private address unless allowed, and never follows a redirect', async () => {
    const me = await makeTenant(t.db);
    const r = await receiver();
    const h = await hook(me, r.url);
    await newListWithItems(me, 1);
    const strict = worker({ allowPrivate: false });
    await strict.tick();
    expect(r.received).toHaveLength(0);
    expect((await status(me, h.id)).last_error).toMatch(/private, loopback or link-local/);
    // a name is judged by what it resolves to when the connection is made
    const byName = await hook(me, r.url.replace('127.0.0.1', 'localhost'));
    await newListWithItems(me, 1);
    await strict.tick();
    expect(r.received).toHaveLength(0);
    expect((await status(me, byName.id)).last_error).toBe(
      'localhost resolves to a private, loopback or link-local address',
    );

    const other = await makeTenant(t.db);
    const target = await receiver();
    const redirecting = await receiver();
    redirecting.answer = { status: 302, location: target.url };
    const h2 = await hook(other, redirecting.url);
    await newListWithItems(other, 1);
    await worker({ instance: 'test-b' }).tick();
    expect(redirecting.received).toHaveLength(1);
    expect(target.received).toHaveLength(0);
    expect((await status(other, h2.id)).last_error).toBe('302: redirects are not followed');
  });

  it('reads at most 64 KB of an answer', async () => {
    const me = await makeTenant(t.db);
    const { createServer } = await import('node:http');
    let written = 0;
    const flood = createServer((_req, res) => {
      res.writeHead(500);
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const more = () => {
        while (written < 64 * 1024 * 1024 && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
    await new Promise<void>((resolve) => flood.listen(0, '127.0.0.1', resolve));
    const port = (flood.address() as { port: number }).port;
    const h = await hook(me, `http://127.0.0.1:${port}/`);
    await newListWithItems(me, 1);
    await worker().tick();
    const failure = (await status(me, h.id)).last_error as string;
    expect(failure.startsWith('500: xxxx')).toBe(true);
    // the connection was dropped long before the 64 MB the receiver meant to send
    expect(written).toBeLessThan(8 * 1024 * 1024);
    flood.closeAllConnections();
    flood.close();
  });

  it('a slow receiver times out without holding up the others', async () => {
    const slowOwner = await makeTenant(t.db);
    const fastOwner = await makeTenant(t.db);
    const slow = await receiver();
    slow.answer = { status: 200, delayMs: 3_000 };
    const fast = await receiver();
    const hs = await hook(slowOwner, slow.url);
    await hook(fastOwner, fast.url);
    await newListWithItems(slowOwner, 1);
    await newListWithItems(fastOwner, 1);
    const w = worker({ timeoutMs: 300 });
    const started = Date.now();
    await w.tick();
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(fast.received).toHaveLength(1);
    expect((await status(slowOwner, hs.id)).last_error).toBe('no answer within the timeout');
  });

  it('sends only the chosen types, list or bot', async () => {
    const me = await makeTenant(t.db);
    const r = await receiver();
    await hook(me, r.url, { types: ['contact.created'] });
    await newListWithItems(me, 2);
    await call(
      t.app,
      'createOrUpdateContact',
      { bot_id: me.botId, messenger: 'telegram', telegram_id: 5_550_001, name: 'Ann' },
      { key: me.apiKey },
    );
    const w = worker();
    await w.tick();
    await w.tick();
    expect(changesIn(r).map((c: any) => c.type)).toEqual(['contact.created']);
  });

  it('one instance at a time; another takes over a dead one’s webhook when its lease ends', async () => {
    const me = await makeTenant(t.db);
    const r = await receiver();
    const h = await hook(me, r.url);
    await newListWithItems(me, 1);
    // instance a holds the webhook's lease and died: its lease runs on, then b takes over
    const b = worker({ instance: 'b' });
    const claimed = await queryRows<{ leased_by: string }>(
      t.db,
      sql`update webhooks set leased_by = 'a', leased_until = ${new Date(now.getTime() + 30_000).toISOString()}::timestamptz where id = ${h.id} returning leased_by`,
    );
    expect(claimed[0]!.leased_by).toBe('a');
    await b.tick();
    expect(r.received).toHaveLength(0);
    now = new Date(now.getTime() + 31_000);
    await b.tick();
    expect(r.received).toHaveLength(1);
    expect(changesIn(r)).toHaveLength(2);
    expect(await status(me, h.id)).toMatchObject({ status: 'active' });
  });

  it('counts deliveries and the oldest undelivered change for /metrics', async () => {
    const me = await makeTenant(t.db);
    const r = await receiver();
    r.answer = { status: 500 };
    await hook(me, r.url);
    await newListWithItems(me, 1);
    const stats = new WebhookStats();
    const w = worker({}, stats);
    await w.tick();
    expect(stats.outcomes).toMatchObject({ failed: 1, delivered: 0 });
    const later = new Date(now.getTime() + 5_000);
    expect(stats.oldestUndeliveredSeconds(later)).toBeGreaterThan(0);
    now = new Date(now.getTime() + 2_000);
    r.answer = { status: 200 };
    await w.tick();
    expect(stats.outcomes).toMatchObject({ failed: 1, delivered: 1 });
    expect(stats.oldestUndeliveredSeconds(now)).toBe(0);
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toContain('listkeeper_webhook_deliveries_total');
    expect(metrics.body).toContain('listkeeper_webhook_oldest_undelivered_seconds');
  });
});
