import { beforeAll, describe, expect, it } from 'vitest';
import { call, TRANSPORTS } from '../helpers/call.js';
import { seedContact } from '../helpers/contacts.js';
import { createBot, makeInvitedProject } from '../helpers/factories.js';
import { makeList, rawRecord, itemCount, type TestList } from '../helpers/lists.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

let list: TestList;

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const t = testAppForFile({ tenants: ['owner', 'stranger'] });
beforeAll(async () => {
  list = await makeList(t.db, t.owner, [
    { slug: 'title', type: 'string', is_required: true },
    { slug: 'qty', type: 'number' },
    { slug: 'paid', type: 'bool' },
    { slug: 'day', type: 'date' },
    { slug: 'at', type: 'datetime' },
    { slug: 'price', type: 'money', currency: 'USD' },
    { slug: 'doc', type: 'file' },
    { slug: 'photo', type: 'image' },
    { slug: 'who', type: 'contact' },
    { slug: 'via', type: 'bot' },
  ]);
});

const add = (
  params: Record<string, unknown>,
  via: (typeof TRANSPORTS)[number] = 'json',
  key = t.owner.apiKey,
) => call(t.app, 'addListItem', params, { key, via });

describe('addListItem (addListItem)', () => {
  it.each(TRANSPORTS)(
    'stores every field type and answers 201 with the whole record via %s',
    async (via) => {
      const contactId = await seedContact(t.db, t.owner.botId);
      const res = await add(
        {
          schema_id: list.id,
          data: {
            title: 'Order 1',
            qty: '2.5',
            paid: 'true',
            day: '2024-02-29',
            at: '2024-05-01 10:20',
            price: '0.30',
            doc: { url: 'https://files.example/a/report%20final.pdf', storage: 'url' },
            photo: { url: 'https://img.example/p.png', name: 'Face', type: 'image' },
            who: String(contactId),
            via: String(t.owner.botId),
            unknown_key: 'ignored',
          },
        },
        via,
      );
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({
        id: expect.any(String),
        title: 'Order 1',
        qty: 2.5,
        paid: true,
        day: '2024-02-29T00:00:00.000Z',
        at: '2024-05-01T10:20:00.000Z',
        price: 0.3,
        doc: {
          type: 'file',
          mime_type: null,
          created_at: null,
          name: 'report final.pdf',
          size: 0,
          storage: 'url',
          caption: null,
          meta: { width: null, height: null, duration: null, codec: null },
          url: 'https://files.example/a/report%20final.pdf',
        },
        photo: expect.objectContaining({
          type: 'image',
          name: 'Face',
          url: 'https://img.example/p.png',
        }),
        who: contactId,
        via: t.owner.botId,
        contact_id: contactId,
        bot_id: t.owner.botId,
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      });
      expect(Object.keys(res.body.data)).toEqual([
        'id',
        'title',
        'qty',
        'paid',
        'day',
        'at',
        'price',
        'doc',
        'photo',
        'who',
        'via',
        'contact_id',
        'bot_id',
        'created_at',
        'updated_at',
      ]);
    },
  );

  it('leaves absent optional fields empty (null) and omits contact_id / bot_id when unlinked', async () => {
    const res = await add({ schema_id: list.id, data: { title: 'Only title' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ title: 'Only title', qty: null, doc: null, who: null });
    expect(res.body.data).not.toHaveProperty('contact_id');
    expect(res.body.data).not.toHaveProperty('bot_id');
  });

  it.each(TRANSPORTS)(
    'answers 422 under data.<slug> for a missing required field and each bad value via %s',
    async (via) => {
      const res = await add(
        {
          schema_id: list.id,
          data: {
            qty: 'many',
            paid: 'yes',
            day: '2023-02-29',
            at: 'tomorrow',
            price: '1.234',
            photo: { url: 'ftp://x' },
          },
        },
        via,
      );
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors).sort()).toEqual(
        [
          'data.title',
          'data.qty',
          'data.paid',
          'data.day',
          'data.at',
          'data.price',
          'data.photo',
        ].sort(),
      );
      expect(res.body.errors['data.title']).toEqual(['The data.title field is required.']);
    },
  );

  it('counts the record in the list counter in the same transaction', async () => {
    const other = await makeList(t.db, t.owner, [{ slug: 'a', type: 'string' }]);
    expect(await itemCount(t.db, other.id)).toBe(0);
    await add({ schema_id: other.id, data: { a: 'x' } });
    await add({ schema_id: other.id, data: { a: 'y' } });
    expect(await itemCount(t.db, other.id)).toBe(2);
    const bad = await add({ schema_id: other.id, data: { a: { no: 1 } } });
    expect(bad.status).toBe(422);
    expect(await itemCount(t.db, other.id)).toBe(2);
  });

  it('answers 404 with errors.schema_id for a list that does not exist (getListSchema body)', async () => {
    const res = await add({ schema_id: 'nope', data: { title: 'x' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      message: expect.any(String),
      error: expect.any(String),
      errors: { schema_id: [res.body.message] },
    });
  });

  it("answers 403 for another account's list", async () => {
    const res = await add({ schema_id: list.id, data: { title: 'x' } }, 'json', t.stranger.apiKey);
    expect(res.status).toBe(403);
    expect(res.body.error).toBeDefined();
  });

  it('answers 422 for a contact or bot ID that does not exist and 403 for one of another account', async () => {
    const missing = await add({
      schema_id: list.id,
      data: { title: 'x', who: 999999999, via: 999999999 },
    });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['data.via', 'data.who']);
    const foreignContact = await seedContact(t.db, t.stranger.botId);
    const res1 = await add({ schema_id: list.id, data: { title: 'x', who: foreignContact } });
    expect(res1.status).toBe(403);
    const res2 = await add({ schema_id: list.id, data: { title: 'x', via: t.stranger.botId } });
    expect(res2.status).toBe(403);
  });

  it("links a record to a contact of any of the caller's bots", async () => {
    const bot2 = await createBot(t.db, t.owner.projectUuid, 'Second');
    const contact = await seedContact(t.db, bot2.id);
    const res = await add({ schema_id: list.id, data: { title: 'x', who: contact, via: bot2.id } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ contact_id: contact, bot_id: bot2.id });
  });

  it('keeps money exact: 0.1 + 0.2 style amounts are stored as decimals', async () => {
    const res = await add({ schema_id: list.id, data: { title: 'm', price: 0.3 } });
    const raw = await rawRecord(t.db, res.body.data.id);
    // the amount lives in its slot, exact (thin documents: not in `data` too)
    expect(raw!.n3).toBe('0.3');
    expect(raw!.data).not.toHaveProperty('price');
    expect(res.body.data.price).toBe(0.3);
  });

  it('writes the slot columns in step with data', async () => {
    const res = await add({
      schema_id: list.id,
      data: { title: 'slots', qty: 7, paid: false, day: '2024-01-02T23:30:00-02:00' },
    });
    expect(res.body.data.day).toBe('2024-01-03T00:00:00.000Z');
    const raw = await rawRecord(t.db, res.body.data.id);
    expect(raw).toMatchObject({ t1: 'slots', n1: '7', n2: '0' });
    expect(new Date(String(raw!.d1)).toISOString()).toBe('2024-01-03T00:00:00.000Z');
  });

  it('answers 403 to a team member for a list in a project they were only invited to (the API conventions)', async () => {
    const shared = await makeInvitedProject(t.db, t.owner, t.stranger);
    const sharedList = await makeList(t.db, { ...t.owner, projectUuid: shared.projectUuid }, [
      { slug: 'a', type: 'string' },
    ]);
    expect(
      (await add({ schema_id: sharedList.id, data: { a: 'x' } }, 'json', t.stranger.apiKey)).status,
    ).toBe(403);
    const page = await call(
      t.app,
      'getListItems',
      { schema_id: sharedList.id },
      { key: t.stranger.apiKey },
    );
    expect(page.status).toBe(403);
    expect((await add({ schema_id: sharedList.id, data: { a: 'x' } })).status).toBe(201);
  });

  it('keeps list field order in the record even for all-digit slugs (the list item shape)', async () => {
    const digits = await makeList(t.db, t.owner, [
      { slug: 'z', type: 'string' },
      { slug: '10', type: 'number' },
      { slug: '2', type: 'bool' },
    ]);
    const res = await add({ schema_id: digits.id, data: { z: 'a', '10': 1, '2': true } });
    expect(res.status).toBe(201);
    // JSON.parse would move integer-like keys first, so the order is read from the text
    const text = res.raw.body;
    const at = (key: string) => text.indexOf(`"${key}":`);
    const order = ['id', 'z', '10', '2', 'created_at', 'updated_at'].map(at);
    expect(order.every((pos) => pos > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });
});
