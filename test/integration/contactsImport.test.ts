import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  IMPORT_BATCH_SIZE,
  ImportBotNotFound,
  importContacts,
  type ImportEvent,
} from '../../src/contacts/import.js';
import { call } from '../helpers/call.js';
import { scalar, seedContact, subscriberCount } from '../helpers/contacts.js';
import { createBot, makeTenant } from '../helpers/factories.js';
import { MANY_CALLS, testAppForFile } from '../helpers/testAppForFile.js';

const t = testAppForFile({ env: MANY_CALLS, tenants: ['owner'] });

async function* linesOf(items: (string | object)[]): AsyncIterable<string> {
  for (const item of items) yield typeof item === 'string' ? item : JSON.stringify(item);
}

async function run(botId: number, items: (string | object)[]) {
  const events: ImportEvent[] = [];
  const counts = await importContacts(t.db, botId, linesOf(items), (e) => events.push(e));
  return { counts, events, failures: events.filter((e) => e.type === 'failure') };
}

const newBot = async () => (await createBot(t.db, t.owner.projectUuid, 'Import')).id;

const exportBot = async (botId: number) =>
  (await call(t.app, 'getContacts', { bot_id: botId, limit: 1000 }, { key: t.owner.apiKey })).body
    .data as Record<string, unknown>[];

describe('contact import (docs/operations.md)', () => {
  it('imports every messenger in the the contact shape shape with variables, preview and times as given', async () => {
    const botId = await newBot();
    const { counts, failures } = await run(botId, [
      {
        messenger: 'telegram',
        telegram_id: '9007199254740993',
        telegram_username: '@ada',
        name: 'Ada',
        phone: '79991234567',
        email: 'ada@example.test',
        address: 'London',
        avatar: 'https://cdn.example.test/a.jpg',
        vk_user_id: null,
        utm: { utm_source: 'ads' },
        tags: ['vip', 'vip', 'beta'],
        variables: [
          { name: 'city', value: 'London', type: 0 },
          { name: 'photo', value: 'https://cdn.example.test/p.jpg', type: 1 },
        ],
        created_at: '2023-05-01T10:00:00.000Z',
        unsubscribed_at: '2023-06-01T00:00:00+02:00',
      },
      { messenger: 'max', max_user_id: 42, max_username: 'maxi', name: 'Max' },
      { messenger: 'vk', vk_user_id: 43, name: 'Vk' },
      { messenger: 'viber', viber_id: 'vb==', name: 'Viber' },
      { messenger: 'web', name: 'Web visitor' },
      { messenger: 'telegram', telegram_id: 5, name: 'Tester', preview: true },
    ]);
    expect(failures).toEqual([]);
    expect(counts).toEqual({ imported: 6, updated: 0, failed: 0 });
    // preview contacts are not subscribers, and getContacts leaves them out
    expect(await subscriberCount(t.db, botId)).toBe(5);
    const listed = await exportBot(botId);
    expect(listed.map((c) => c.messenger)).toEqual(['telegram', 'max', 'vk', 'viber', 'web']);
    expect(listed[0]).toEqual({
      id: expect.any(Number),
      bot_id: botId,
      phone: '79991234567',
      email: 'ada@example.test',
      name: 'Ada',
      address: 'London',
      messenger: 'telegram',
      utm: { utm_source: 'ads' },
      avatar: 'https://cdn.example.test/a.jpg',
      telegram_id: '9007199254740993',
      telegram_username: 'ada',
      vk_user_id: null,
      created_at: '2023-05-01T10:00:00.000Z',
      unsubscribed_at: '2023-05-31T22:00:00.000Z',
      tags: ['vip', 'beta'],
      variables: [
        expect.objectContaining({ name: 'utm_source', value: 'ads', type: 0 }),
        expect.objectContaining({ name: 'city', value: 'London', type: 0 }),
        expect.objectContaining({
          name: 'photo',
          value: 'https://cdn.example.test/p.jpg',
          type: 1,
        }),
      ],
    });
    expect(listed[1]).toMatchObject({ max_user_id: 42, max_username: 'maxi' });
    expect(listed[2]).toMatchObject({ vk_user_id: 43 });
    expect(listed[3]).toMatchObject({ viber_id: 'vb==' });
  });

  it('reports bad lines with their numbers and reasons and goes on', async () => {
    const botId = await newBot();
    const { counts, failures, events } = await run(botId, [
      { messenger: 'telegram', telegram_id: 1, name: 'ok 1' },
      '{not json',
      { messenger: 'telegram', name: 'no id' },
      '',
      { messenger: 'fax', name: 'x' },
      { messenger: 'telegram', telegram_id: 2, phone: '12', email: 'nope' },
      '[1,2]',
      // passes the line checks, refused by Postgres (there is no year 0)
      { messenger: 'telegram', telegram_id: 3, created_at: '0000-01-01T00:00:00Z' },
      { messenger: 'telegram', telegram_id: 4, name: 'ok 2' },
      { messenger: 'telegram', telegram_id: 5, name: 'nul \u0000' },
    ]);
    expect(counts).toEqual({ imported: 2, updated: 0, failed: 7 });
    // lines refused by Postgres are known only once their batch is written
    expect(failures.map((f) => 'line' in f && f.line)).toEqual([2, 3, 5, 6, 7, 10, 8]);
    const reasons = Object.fromEntries(
      failures.map((f) => (f.type === 'failure' ? [f.line, f.reason] : [])),
    );
    expect(reasons[2]).toMatch(/invalid JSON/);
    expect(reasons[3]).toMatch(/telegram_id/);
    expect(reasons[5]).toMatch(/messenger/);
    expect(reasons[6]).toMatch(/phone/);
    expect(reasons[6]).toMatch(/email/);
    expect(reasons[7]).toMatch(/JSON object/);
    expect(reasons[8]).toMatch(/database/);
    expect(reasons[10]).toMatch(/name: must not contain NUL/);
    expect(events.at(-1)).toEqual({
      type: 'progress',
      lines: 10,
      imported: 2,
      updated: 0,
      failed: 7,
    });
    expect((await exportBot(botId)).map((c) => c.name)).toEqual(['ok 1', 'ok 2']);
  });

  it('updates a contact with the same messenger ID: given keys replace, absent keys stay, null clears', async () => {
    const botId = await newBot();
    const id = await seedContact(t.db, botId, {
      telegram_id: 77,
      name: 'Old',
      email: 'old@example.test',
      phone: '111111111',
      address: 'Old street',
      tags: ['old'],
      variables: [
        { name: 'keep', value: 'kept' },
        { name: 'city', value: 'Paris' },
      ],
    });
    const before = await subscriberCount(t.db, botId);
    const { counts } = await run(botId, [
      {
        messenger: 'telegram',
        telegram_id: 77,
        name: 'New',
        email: null,
        tags: [],
        variables: [{ name: 'city', value: 'Rome' }],
      },
    ]);
    expect(counts).toEqual({ imported: 0, updated: 1, failed: 0 });
    expect(await subscriberCount(t.db, botId)).toBe(before);
    const [contact] = await exportBot(botId);
    expect(contact).toMatchObject({
      id,
      name: 'New',
      email: null,
      phone: '111111111',
      address: 'Old street',
      tags: [],
      variables: [
        expect.objectContaining({ name: 'keep', value: 'kept' }),
        expect.objectContaining({ name: 'city', value: 'Rome' }),
      ],
    });
  });

  it('applies a repeated messenger ID in one file in order: the later line updates the earlier', async () => {
    const botId = await newBot();
    const { counts } = await run(botId, [
      { messenger: 'vk', vk_id: 9, name: 'first' },
      { messenger: 'vk', vk_user_id: 9, name: 'second' },
    ]);
    expect(counts).toEqual({ imported: 1, updated: 1, failed: 0 });
    expect((await exportBot(botId)).map((c) => c.name)).toEqual(['second']);
  });

  it('round-trips an export: importing getContacts output into another bot gives the same contacts', async () => {
    const source = await newBot();
    await run(source, [
      {
        messenger: 'telegram',
        telegram_id: 11,
        name: 'A',
        tags: ['x'],
        utm: { utm_campaign: 'c' },
      },
      { messenger: 'max', max_user_id: 12, name: 'B', unsubscribed_at: '2024-02-02T00:00:00Z' },
      { messenger: 'viber', viber_id: 'v-13', name: 'C', phone: '+123456789' },
    ]);
    const exported = await exportBot(source);
    const target = await newBot();
    const { counts } = await run(target, exported);
    expect(counts).toEqual({ imported: 3, updated: 0, failed: 0 });
    const strip = (c: Record<string, unknown>) => ({
      ...c,
      id: 0,
      bot_id: 0,
      variables: (c.variables as { name: string; value: string }[]).map((v) => [v.name, v.value]),
    });
    expect((await exportBot(target)).map(strip)).toEqual(exported.map(strip));
    const again = await run(target, exported);
    expect(again.counts).toEqual({ imported: 0, updated: 3, failed: 0 });
  });

  it('writes files larger than one batch completely and reports progress per batch', async () => {
    const botId = await newBot();
    const n = IMPORT_BATCH_SIZE * 2 + 17;
    const items = Array.from({ length: n }, (_, i) => ({
      messenger: 'telegram',
      telegram_id: 1_000_000 + i,
      name: `C${i}`,
      variables: [{ name: 'n', value: String(i) }],
    }));
    const { counts, events } = await run(botId, items);
    expect(counts).toEqual({ imported: n, updated: 0, failed: 0 });
    // one per batch written, then the final count
    expect(events.filter((e) => e.type === 'progress')).toHaveLength(4);
    expect(events.at(-1)).toEqual({
      type: 'progress',
      lines: n,
      imported: n,
      updated: 0,
      failed: 0,
    });
    expect(await scalar(t.db, sql`SELECT count(*) FROM contacts WHERE bot_id = ${botId}`)).toBe(n);
    expect(await subscriberCount(t.db, botId)).toBe(n);
    const counted = await call(
      t.app,
      'getNumberOfContacts',
      { bot_id: botId },
      { key: t.owner.apiKey },
    );
    expect(counted.body.count).toBe(n);
  });

  it('applies lines about the same contact in file order across batches written side by side', async () => {
    const botId = await newBot();
    const n = IMPORT_BATCH_SIZE;
    const wave = (name: string, from: number) =>
      Array.from({ length: n }, (_, i) => ({
        messenger: 'telegram',
        telegram_id: 3_000_000 + from + i,
        name,
      }));
    // batch 2 repeats batch 1's contacts and must wait for it; batch 3 may run beside batch 2
    const { counts } = await run(botId, [
      ...wave('first', 0),
      ...wave('last', 0),
      ...wave('other', n),
    ]);
    expect(counts).toEqual({ imported: 2 * n, updated: n, failed: 0 });
    const names = await scalar(
      t.db,
      sql`SELECT count(*) FROM contacts WHERE bot_id = ${botId} AND name = 'last'`,
    );
    expect(names).toBe(n);
  });

  it('refuses a bot that does not exist before reading anything', async () => {
    await expect(run(987_654_321, [{ messenger: 'web', name: 'x' }])).rejects.toBeInstanceOf(
      ImportBotNotFound,
    );
  });

  it('records every imported contact in the change feed, as getContacts shows it', async () => {
    const tenant = await makeTenant(t.db);
    await importContacts(
      t.db,
      tenant.botId,
      linesOf([
        { messenger: 'vk', vk_user_id: 7001, name: 'First' },
        { messenger: 'vk', vk_user_id: 7002, name: 'Second' },
      ]),
      () => undefined,
    );
    await importContacts(
      t.db,
      tenant.botId,
      linesOf([{ messenger: 'vk', vk_user_id: 7001, name: 'First again' }]),
      () => undefined,
    );
    const feed = await call(t.app, 'getChanges', {}, { key: tenant.apiKey });
    expect(feed.body.data.map((c: { type: string }) => c.type)).toEqual([
      'contact.created',
      'contact.created',
      'contact.updated',
    ]);
    const contacts = await call(
      t.app,
      'getContacts',
      { bot_id: tenant.botId, limit: 10 },
      { key: tenant.apiKey },
    );
    const first = contacts.body.data.find((c: { name: string }) => c.name === 'First again');
    expect(feed.body.data[2].data).toEqual(first);
  });
});
