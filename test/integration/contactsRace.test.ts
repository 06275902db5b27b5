import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { importContacts, type ImportEvent } from '../../src/contacts/import.js';
import { call, type CallResult } from '../helpers/call.js';
import { scalar, subscriberCount } from '../helpers/contacts.js';
import { createBot } from '../helpers/factories.js';
import { MANY_CALLS, testAppForFile } from '../helpers/testAppForFile.js';

const t = testAppForFile({ env: MANY_CALLS, tenants: ['owner'] });

const upsert = (params: Record<string, unknown>) =>
  call(t.app, 'createOrUpdateContact', params, { key: t.owner.apiKey });

describe('createOrUpdateContact under concurrency', () => {
  it('turns 50 simultaneous calls for one telegram_id into one contact, one 201 and one new subscriber', async () => {
    const before = await subscriberCount(t.db, t.owner.botId);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        upsert({
          bot_id: t.owner.botId,
          messenger: 'telegram',
          telegram_id: 123_456_789,
          name: `Racer ${i}`,
        }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    // on a failure, every answer that was neither: its status and error (CI once saw 48 of 49)
    const others = responses.filter((r) => r.status !== 200 && r.status !== 201);
    const seen = JSON.stringify(others.map((r) => [r.status, r.body?.error ?? r.body]));
    expect(
      statuses.filter((s) => s === 201),
      seen,
    ).toHaveLength(1);
    expect(
      statuses.filter((s) => s === 200),
      seen,
    ).toHaveLength(49);
    expect(new Set(responses.map((r) => r.body.data.id)).size).toBe(1);
    expect(
      await scalar(
        t.db,
        sql`SELECT count(*) FROM contacts WHERE bot_id = ${t.owner.botId} AND telegram_id = 123456789`,
      ),
    ).toBe(1);
    expect(await subscriberCount(t.db, t.owner.botId)).toBe(before + 1);
    const listed = await call(
      t.app,
      'getNumberOfContacts',
      { bot_id: t.owner.botId },
      { key: t.owner.apiKey },
    );
    expect(listed.body.count).toBe(1);
  });

  it('answers 30 simultaneous calls for one contact, half with an Idempotency-Key, without a 503', async () => {
    // A keyed call runs inside its key's transaction, holding a connection: had it waited in
    // the process's contact queue (ContactWriteQueue) with it, ten of them would hold the
    // pool's ten connections while the unkeyed call ahead of them in the queue waited for one.
    const bot = (await createBot(t.db, t.owner.projectUuid, 'Keyed race')).id;
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call(
          t.app,
          'createOrUpdateContact',
          { bot_id: bot, messenger: 'max', max_id: 777, name: `Keyed ${i}` },
          {
            key: t.owner.apiKey,
            headers: i % 2 ? { 'idempotency-key': `race-${i}` } : {},
          },
        ),
      ),
    );
    const others = responses.filter((r) => r.status !== 200 && r.status !== 201);
    expect(JSON.stringify(others.map((r) => [r.status, r.body?.error ?? r.body]))).toBe('[]');
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
  });

  it('counts every one of 50 simultaneous creates of different contacts', async () => {
    const before = await subscriberCount(t.db, t.owner.botId);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        upsert({ bot_id: t.owner.botId, messenger: 'vk', vk_id: 10_000 + i, name: `VK ${i}` }),
      ),
    );
    expect(responses.every((r) => r.status === 201)).toBe(true);
    expect(await subscriberCount(t.db, t.owner.botId)).toBe(before + 50);
    const listed = await call(
      t.app,
      'getNumberOfContacts',
      { bot_id: t.owner.botId },
      { key: t.owner.apiKey },
    );
    expect(listed.body.count).toBe(51);
  });
});

/**
 * createOrUpdateContacts batches that share contacts, given in different orders, with
 * single createOrUpdateContact calls among them. Each batch locks its contacts' keys in one
 * order before writing (src/contacts/contactLocks.ts); before that, two batches could each
 * lock half of their shared contacts and deadlock, and Postgres aborted one after a second
 * (a 503): over half the calls of this test failed that way.
 */
/** calls per worker: a number, not a time, so a slow machine overlaps them just as much */
const ROUNDS = 6;
const WORKERS = 8;
/** the telegram IDs every call draws from: batches of 40 of them overlap heavily */
const POOL = 120;

describe('createOrUpdateContacts under concurrency', () => {
  it('lets overlapping batches and single calls all succeed, counting each contact once', async () => {
    const before = await subscriberCount(t.db, t.owner.botId);
    const statuses = new Map<number, number>();
    const seen = (res: CallResult) => statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    await Promise.all(
      Array.from({ length: WORKERS }, async (_, w) => {
        let seed = w + 1;
        const next = (n: number) => ((seed = (seed * 16807) % 2147483647), seed % n);
        for (let round = 0; round < ROUNDS; round++) {
          const ids = Array.from({ length: 40 }, () => 5000 + next(POOL));
          if (w % 4 === 0) {
            seen(
              await call(
                t.app,
                'createOrUpdateContact',
                { bot_id: t.owner.botId, messenger: 'telegram', telegram_id: ids[0], name: 'one' },
                { key: t.owner.apiKey },
              ),
            );
            continue;
          }
          // repeated IDs (most batches here) go one by one; distinct ones in bulk
          const batch = w % 2 === 0 ? ids : [...new Set(ids)];
          const res = await call(
            t.app,
            'createOrUpdateContacts',
            {
              bot_id: t.owner.botId,
              atomic: w % 3 === 0,
              contacts: batch.map((id) => ({
                messenger: 'telegram',
                telegram_id: id,
                name: `n${next(9)}`,
                tags: [`t${next(3)}`],
              })),
            },
            { key: t.owner.apiKey },
          );
          seen(res);
          if (res.status === 200)
            expect(res.body.data.every((o: { status: number }) => o.status < 300)).toBe(true);
        }
      }),
    );
    const answered = Object.fromEntries(statuses);
    expect(Object.keys(answered).filter((s) => !['200', '201'].includes(s))).toEqual([]);
    // every batch answers 200 (its outcomes inside); the single calls 200 or 201
    const batches = ROUNDS * WORKERS * (3 / 4);
    expect(answered['200']).toBeGreaterThanOrEqual(batches);
    expect((answered['200'] ?? 0) + (answered['201'] ?? 0)).toBe(ROUNDS * WORKERS);

    const racedFor = await scalar(
      t.db,
      sql`SELECT count(*) FROM contacts WHERE bot_id = ${t.owner.botId}
            AND telegram_id >= 5000 AND telegram_id < ${5000 + POOL}`,
    );
    expect(await subscriberCount(t.db, t.owner.botId)).toBe(before + racedFor);
    const stored = await scalar(
      t.db,
      sql`SELECT count(*) FROM contacts WHERE bot_id = ${t.owner.botId}`,
    );
    const listed = await call(
      t.app,
      'getNumberOfContacts',
      { bot_id: t.owner.botId },
      { key: t.owner.apiKey },
    );
    expect(listed.body.count).toBe(stored);
  }, 30_000);
});

describe('contacts import under concurrent API writes', () => {
  it('imports while overlapping createOrUpdateContacts batches run, without a deadlock on either side', async () => {
    const bot = (await createBot(t.db, t.owner.projectUuid, 'Import race')).id;
    // the import's lines cover the pool twice over, in an order unlike any API batch's
    const lines = Array.from({ length: 2 * POOL }, (_, i) => ({
      messenger: 'telegram',
      telegram_id: 7000 + ((i * 37) % POOL),
      name: `imported ${i}`,
    }));
    const statuses = new Set<number>();
    let importing = true;
    const writers = Array.from({ length: 4 }, async (_, w) => {
      let seed = 50 + w;
      const next = (n: number) => ((seed = (seed * 16807) % 2147483647), seed % n);
      while (importing) {
        const ids = [...new Set(Array.from({ length: 40 }, () => 7000 + next(POOL)))];
        const res = await call(
          t.app,
          'createOrUpdateContacts',
          {
            bot_id: bot,
            contacts: ids.map((id) => ({ messenger: 'telegram', telegram_id: id, name: 'api' })),
          },
          { key: t.owner.apiKey },
        );
        statuses.add(res.status);
      }
    });
    const events: ImportEvent[] = [];
    const imported = (async () => {
      try {
        // several imports of every line, each one batch holding its rows' locks at once
        for (let round = 0; round < 5; round++) {
          const text = lines.map((l) => JSON.stringify({ ...l, name: `${l.name} r${round}` }));
          await importContacts(t.db, bot, linesOf(text), (e) => events.push(e));
        }
      } finally {
        importing = false;
      }
    })();
    await Promise.all([imported, ...writers]);
    expect(events.filter((e) => e.type === 'failure')).toEqual([]);
    expect([...statuses]).toEqual([200]);
    const stored = await scalar(t.db, sql`SELECT count(*) FROM contacts WHERE bot_id = ${bot}`);
    expect(stored).toBe(POOL);
    expect(await subscriberCount(t.db, bot)).toBe(POOL);
  }, 60_000);
});

async function* linesOf(lines: readonly string[]): AsyncIterable<string> {
  yield* lines;
}
