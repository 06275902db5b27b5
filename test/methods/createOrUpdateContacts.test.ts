import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/infra/db/client.js';
import { call } from '../helpers/call.js';
import { MANY_CALLS, testAppForFile } from '../helpers/testAppForFile.js';

let nextId = 500_000_000;

const t = testAppForFile({ env: MANY_CALLS, tenants: ['owner', 'stranger'] });

const upsertMany = (params: Record<string, unknown>, key = t.owner.apiKey) =>
  call(t.app, 'createOrUpdateContacts', params, { key });
const count = async (botId: number) =>
  (
    await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from contacts where bot_id = ${botId}`,
    )
  )[0]!.n;

describe('createOrUpdateContacts', () => {
  it('creates and updates in one call, one outcome per contact in order', async () => {
    const id = nextId++;
    await call(
      t.app,
      'createOrUpdateContact',
      { bot_id: t.owner.botId, messenger: 'telegram', telegram_id: id, name: 'Old' },
      { key: t.owner.apiKey },
    );
    const before = await count(t.owner.botId);
    const res = await upsertMany({
      bot_id: t.owner.botId,
      contacts: [
        { messenger: 'telegram', telegram_id: id, name: 'New' },
        { messenger: 'vk', vk_id: nextId++, name: 'Vk', tags: ['a'] },
      ],
    });
    expect(res.status).toBe(200);
    expect(
      res.body.data.map((o: { index: number; status: number }) => [o.index, o.status]),
    ).toEqual([
      [0, 200],
      [1, 201],
    ]);
    expect(res.body.data[0].data.name).toBe('New');
    expect(res.body.data[1].data).toMatchObject({ messenger: 'vk', tags: ['a'] });
    expect(await count(t.owner.botId)).toBe(before + 1);
  });

  it('writes nothing when one contact fails, naming it under contacts.<index>', async () => {
    const before = await count(t.owner.botId);
    const res = await upsertMany({
      bot_id: t.owner.botId,
      contacts: [
        { messenger: 'telegram', telegram_id: nextId++, name: 'Ok' },
        { messenger: 'telegram', name: 'No id' },
      ],
    });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['contacts.1.telegram_id']);
    expect(await count(t.owner.botId)).toBe(before);
  });

  it('with atomic=false keeps the valid contacts', async () => {
    const before = await count(t.owner.botId);
    const res = await upsertMany({
      bot_id: t.owner.botId,
      atomic: false,
      contacts: [
        { messenger: 'web', name: 'Web' },
        { messenger: 'telegram', telegram_id: nextId++, name: 'Ok' },
      ],
    });
    expect(res.body.data.map((o: { status: number }) => o.status)).toEqual([422, 201]);
    expect(Object.keys(res.body.data[0].errors)).toEqual(['contacts.0.messenger']);
    expect(await count(t.owner.botId)).toBe(before + 1);
  });

  it('answers 404 (bot_id) for another account’s bot and 422 beyond 500 contacts', async () => {
    const foreign = await upsertMany(
      {
        bot_id: t.owner.botId,
        contacts: [{ messenger: 'telegram', telegram_id: nextId++, name: 'x' }],
      },
      t.stranger.apiKey,
    );
    expect([foreign.status, Object.keys(foreign.body.errors)]).toEqual([404, ['bot_id']]);
    const many = await upsertMany({
      bot_id: t.owner.botId,
      contacts: Array.from({ length: 501 }, () => ({
        messenger: 'telegram',
        telegram_id: 1,
        name: 'x',
      })),
    });
    expect([many.status, Object.keys(many.body.errors)]).toEqual([422, ['contacts']]);
  });
});

describe('createOrUpdateContacts answers as createOrUpdateContact does', () => {
  it('creates the same contact, byte for byte but the ids and times, and counts subscribers once each', async () => {
    const single = nextId++;
    const batched = nextId++;
    const fields = {
      messenger: 'telegram',
      name: 'Same',
      phone: '+15551230000',
      telegram_username: '@same',
      tags: ['x', 'y'],
    };
    const one = await call(
      t.app,
      'createOrUpdateContact',
      { bot_id: t.owner.botId, telegram_id: single, ...fields },
      { key: t.owner.apiKey },
    );
    const [subscribersBefore] = await queryRows<{ n: number }>(
      t.db,
      sql`select subscriber_count::int as n from bots where id = ${t.owner.botId}`,
    );
    const many = await upsertMany({
      bot_id: t.owner.botId,
      contacts: [{ telegram_id: batched, ...fields }],
    });
    const [subscribersAfter] = await queryRows<{ n: number }>(
      t.db,
      sql`select subscriber_count::int as n from bots where id = ${t.owner.botId}`,
    );
    const strip = (c: Record<string, unknown>) => ({
      ...c,
      id: 0,
      telegram_id: '0',
      created_at: '',
    });
    expect(strip(many.body.data[0].data)).toEqual(strip(one.body.data));
    expect(subscribersAfter!.n).toBe(subscribersBefore!.n + 1);
  });

  it('updates with the single method’s rules: name always, the rest only when sent, tags replaced when sent', async () => {
    const id = nextId++;
    await upsertMany({
      bot_id: t.owner.botId,
      contacts: [
        {
          messenger: 'telegram',
          telegram_id: id,
          name: 'A',
          email: 'a@example.test',
          tags: ['old'],
        },
      ],
    });
    const res = await upsertMany({
      bot_id: t.owner.botId,
      contacts: [{ messenger: 'telegram', telegram_id: id, name: 'B' }],
    });
    expect(res.body.data[0]).toMatchObject({
      status: 200,
      data: { name: 'B', email: 'a@example.test', tags: ['old'] },
    });
    const again = await upsertMany({
      bot_id: t.owner.botId,
      contacts: [{ messenger: 'telegram', telegram_id: id, name: 'C', tags: [] }],
    });
    expect(again.body.data[0].data).toMatchObject({ name: 'C', tags: [] });
  });

  it('takes one messenger ID twice in a batch in turn: created, then updated', async () => {
    const id = nextId++;
    const res = await upsertMany({
      bot_id: t.owner.botId,
      contacts: [
        { messenger: 'telegram', telegram_id: id, name: 'First' },
        { messenger: 'telegram', telegram_id: id, name: 'Second' },
      ],
    });
    expect(res.body.data.map((o: { status: number }) => o.status)).toEqual([201, 200]);
    expect(res.body.data[1].data.name).toBe('Second');
  });
});
