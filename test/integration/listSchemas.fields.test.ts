import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/infra/db/client.js';
import { listFieldErasures, listItems, listSchemas } from '../../src/infra/db/schema/index.js';
import {
  eraseFieldValues,
  eraseNowOrLater,
  resumeStaleErasures,
} from '../../src/lists/schemas/fieldErasure.js';
import { MAX_FIELDS_PER_LIST, removeField } from '../../src/lists/schemas/fieldRepository.js';
import { call, TRANSPORTS } from '../helpers/call.js';
import { makeInvitedProject, makeTenant, type Tenant } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';

let t: TestApp;
let owner: Tenant;
let other: Tenant;
let now = new Date('2025-01-01T10:00:00.000Z');
let baseUrl: string;

beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '100000' }, clock: () => now });
  owner = await makeTenant(t.db);
  other = await makeTenant(t.db);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

const FIELDS = [
  { name: 'Title', slug: 'title', type: 'string' },
  { name: 'Price', slug: 'price', type: 'money', currency: 'EUR' },
];

async function createList(tenant = owner, projectUuid = tenant.projectUuid): Promise<string> {
  const res = await call(
    t.app,
    'createListSchema',
    { name: 'L', project_uuid: projectUuid, fields: FIELDS },
    { key: tenant.apiKey },
  );
  expect(res.status).toBe(201);
  return res.body.data.id;
}

async function storedFields(schemaId: string) {
  const [row] = await t.db.select().from(listSchemas).where(eq(listSchemas.id, schemaId));
  return row!.fields;
}

const add = (
  schemaId: string,
  field: Record<string, unknown>,
  via: 'query' | 'json' | 'form' = 'json',
  key = owner.apiKey,
) => call(t.app, 'addListSchemaField', { schema_id: schemaId, field }, { key, via });

/** A real HTTP request to the listening server, so concurrent calls really overlap. */
async function post(method: string, body: unknown, key = owner.apiKey) {
  const res = await fetch(`${baseUrl}/api/v1/${method}`, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      authorization: `Bearer ${key}`,
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe('addListSchemaField (spec 4.5)', () => {
  it.each(TRANSPORTS)('adds a field at the end with its defaults via %s', async (via) => {
    now = new Date('2025-01-01T10:00:00.000Z');
    const id = await createList();
    now = new Date('2025-02-02T12:00:00.000Z');
    const res = await add(id, { name: 'Note', slug: 'note', type: 'string' }, via);
    expect(res.status).toBe(204);
    expect(res.raw.body).toBe('');

    const read = await call(t.app, 'getListSchema', { schema_id: id }, { key: owner.apiKey });
    expect(Object.keys(read.body.data.fields)).toEqual(['title', 'price', 'note']);
    expect(read.body.data.fields.note).toEqual({
      name: 'Note',
      type: 'string',
      is_required: true,
      is_hidden: false,
      is_encryptable: false,
    });
    expect(read.body.data.updated_at).toBe('2025-02-02T12:00:00.000Z');
    expect(read.body.data.created_at).not.toBe(read.body.data.updated_at);
  });

  it.each(TRANSPORTS)('reads boolean text forms of the flags via %s', async (via) => {
    const id = await createList();
    const field = {
      name: 'F',
      slug: 'f',
      type: 'bool',
      is_required: '0',
      is_hidden: '1',
      is_encryptable: 'true',
    };
    expect((await add(id, field, via)).status).toBe(204);
    const read = await call(t.app, 'getListSchema', { schema_id: id }, { key: owner.apiKey });
    expect(read.body.data.fields.f).toMatchObject({
      is_required: false,
      is_hidden: true,
      is_encryptable: true,
    });
  });

  it('keeps an all-digit slug at the end of the fields', async () => {
    const id = await createList();
    expect((await add(id, { name: 'Seven', slug: '7', type: 'number' })).status).toBe(204);
    const read = await call(t.app, 'getListSchema', { schema_id: id }, { key: owner.apiKey });
    const text = read.raw.body;
    expect(text.indexOf('"price":')).toBeLessThan(text.indexOf('"7":'));
    expect(text.indexOf('"title":')).toBeLessThan(text.indexOf('"price":'));
  });

  it('stores a money field’s currency and ignores a currency on other types', async () => {
    const id = await createList();
    expect(
      (await add(id, { name: 'Yen', slug: 'yen', type: 'money', currency: 'JPY' })).status,
    ).toBe(204);
    expect(
      (await add(id, { name: 'S', slug: 's', type: 'string', currency: 'bogus' })).status,
    ).toBe(204);
    const read = await call(t.app, 'getListSchema', { schema_id: id }, { key: owner.apiKey });
    expect(read.body.data.fields.yen.currency).toBe('JPY');
    expect(read.body.data.fields.s).not.toHaveProperty('currency');
  });

  it('gives the new field a free storage slot and does not touch existing records', async () => {
    const id = await createList();
    await t.db
      .insert(listItems)
      .values({ id: `${id}-r`, schemaId: id, data: { title: 'x' }, t1: 'x' });
    expect((await add(id, { name: 'Note', slug: 'note', type: 'string' })).status).toBe(204);
    expect((await storedFields(id)).map((f) => f.slot)).toEqual(['t1', 'n1', 't2']);
    const [record] = await t.db.select().from(listItems).where(eq(listItems.schemaId, id));
    expect(record).toMatchObject({ data: { title: 'x' }, t1: 'x', t2: null });
  });

  it.each(TRANSPORTS)(
    'answers 422 under field.slug for a slug already in the list via %s',
    async (via) => {
      const id = await createList();
      const res = await add(id, { name: 'T', slug: 'title', type: 'number' }, via);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['field.slug']);
    },
  );

  it.each([
    ['a money field without currency', { name: 'M', slug: 'm', type: 'money' }, ['field.currency']],
    ['a blank currency', { name: 'M', slug: 'm', type: 'money', currency: '' }, ['field.currency']],
    [
      'an unknown currency',
      { name: 'M', slug: 'm', type: 'money', currency: 'ABC' },
      ['field.currency'],
    ],
    [
      'a lower-case currency',
      { name: 'M', slug: 'm', type: 'money', currency: 'usd' },
      ['field.currency'],
    ],
    ['a reserved slug', { name: 'I', slug: 'id', type: 'string' }, ['field.slug']],
    ['a slug with a slash', { name: 'I', slug: 'a/b', type: 'string' }, ['field.slug']],
    ['an unknown type', { name: 'I', slug: 'i', type: 'float' }, ['field.type']],
    [
      'a name over 255 characters',
      { name: 'n'.repeat(256), slug: 'i', type: 'string' },
      ['field.name'],
    ],
    [
      'a bad boolean',
      { name: 'I', slug: 'i', type: 'string', is_required: 'no' },
      ['field.is_required'],
    ],
    ['a field that is not an object', 'title', ['field']],
    ['a null field', null, ['field']],
  ] as Array<[string, unknown, string[]]>)('answers 422 for %s', async (_label, field, keys) => {
    const id = await createList();
    const res = await call(
      t.app,
      'addListSchemaField',
      { schema_id: id, field },
      { key: owner.apiKey },
    );
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(keys);
    expect((await storedFields(id)).map((f) => f.slug)).toEqual(['title', 'price']);
  });

  it('lists every failing field in one 422, the taken slug included (spec 7)', async () => {
    const id = await createList();
    const res = await add(id, { slug: 'price', type: 'money', currency: 'nope' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual([
      'field.currency',
      'field.name',
      'field.slug',
    ]);
  });

  it('answers 422 under field when no field is sent', async () => {
    const id = await createList();
    const res = await call(t.app, 'addListSchemaField', { schema_id: id }, { key: owner.apiKey });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['field']);
  });

  it('answers 422 under schema_id, with the field’s errors, when schema_id is missing', async () => {
    const res = await call(
      t.app,
      'addListSchemaField',
      { field: { slug: 'a' } },
      { key: owner.apiKey },
    );
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['field.name', 'field.type', 'schema_id']);
  });

  it('answers 404 for an unknown or deleted list, 403 for another account’s or a team project’s', async () => {
    const field = { name: 'N', slug: 'n', type: 'string' };
    expect((await add('missing', field)).status).toBe(404);
    const deleted = await createList();
    await call(t.app, 'deleteListSchema', { schema_id: deleted }, { key: owner.apiKey });
    const gone = await add(deleted, field);
    expect(gone.status).toBe(404);
    expect(gone.body.errors.schema_id).toHaveLength(1);

    const foreign = await add(await createList(other), field);
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ message: expect.any(String), error: expect.any(String) });
    const shared = await makeInvitedProject(t.db, other, owner);
    expect((await add(await createList(other, shared.projectUuid), field)).status).toBe(403);
  });

  it('lets exactly one of 20 concurrent adds of one slug succeed; the rest get 422 field.slug', async () => {
    const id = await createList();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post('addListSchemaField', {
          schema_id: id,
          field: { name: `Dup ${i}`, slug: 'dup', type: 'string' },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 204)).toHaveLength(1);
    const refused = results.filter((r) => r.status !== 204);
    expect(refused).toHaveLength(19);
    for (const r of refused) {
      expect(r.status).toBe(422);
      expect(Object.keys(r.body.errors)).toEqual(['field.slug']);
    }
    expect((await storedFields(id)).filter((f) => f.slug === 'dup')).toHaveLength(1);
  });

  it('keeps every one of 20 concurrent adds of different slugs (no lost update)', async () => {
    const id = await createList();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post('addListSchemaField', {
          schema_id: id,
          field: { name: `F${i}`, slug: `f${i}`, type: 'number' },
        }),
      ),
    );
    expect(results.every((r) => r.status === 204)).toBe(true);
    const fields = await storedFields(id);
    expect(fields).toHaveLength(22);
    // Three numeric slots existed; the price took one, two more fields got the others.
    expect(fields.filter((f) => f.slot?.startsWith('n'))).toHaveLength(3);
  });

  it(`refuses a field beyond ${MAX_FIELDS_PER_LIST} under field (docs/decisions.md)`, async () => {
    const id = await createList();
    const many = Array.from({ length: MAX_FIELDS_PER_LIST - 2 }, (_, i) => ({
      slug: `x${i}`,
      name: 'X',
      type: 'string',
      is_required: false,
      is_hidden: false,
      is_encryptable: false,
    }));
    await t.db
      .update(listSchemas)
      .set({ fields: [...(await storedFields(id)), ...many] })
      .where(eq(listSchemas.id, id));
    const res = await add(id, { name: 'One more', slug: 'more', type: 'string' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['field']);
  });
});

describe('deleteListSchemaField (spec 4.6)', () => {
  const del = (
    schemaId: string,
    slug: unknown,
    via: 'query' | 'json' | 'form' = 'json',
    key = owner.apiKey,
  ) => call(t.app, 'deleteListSchemaField', { schema_id: schemaId, slug }, { key, via });

  it.each(TRANSPORTS)(
    'removes the field and erases its values from every record via %s',
    async (via) => {
      const id = await createList();
      const otherList = await createList();
      await add(id, { name: 'Note', slug: 'note', type: 'string' });
      await t.db.insert(listItems).values([
        {
          id: `${id}-1`,
          schemaId: id,
          data: { title: 'a', price: 1.5, note: 'n' },
          t1: 'a',
          n1: '1.5',
          t2: 'n',
        },
        { id: `${id}-2`, schemaId: id, data: { title: 'b' }, t1: 'b' },
        {
          id: `${otherList}-1`,
          schemaId: otherList,
          data: { title: 'c', price: 2 },
          t1: 'c',
          n1: '2',
        },
      ]);
      now = new Date('2025-03-03T00:00:00.000Z');
      const res = await del(id, 'price', via);
      expect(res.status).toBe(204);
      expect(res.raw.body).toBe('');

      const read = await call(t.app, 'getListSchema', { schema_id: id }, { key: owner.apiKey });
      expect(Object.keys(read.body.data.fields)).toEqual(['title', 'note']);
      expect(read.body.data.updated_at).toBe('2025-03-03T00:00:00.000Z');

      const rows = await t.db
        .select()
        .from(listItems)
        .where(eq(listItems.schemaId, id))
        .orderBy(listItems.id);
      expect(rows.map((r) => [r.data, r.t1, r.n1, r.t2])).toEqual([
        [{ title: 'a', note: 'n' }, 'a', null, 'n'],
        [{ title: 'b' }, 'b', null, null],
      ]);
      // Another list's field of the same slug is untouched.
      const [kept] = await t.db.select().from(listItems).where(eq(listItems.schemaId, otherList));
      expect(kept).toMatchObject({ data: { title: 'c', price: 2 }, n1: '2' });
      // The erase finished: nothing pending.
      expect(
        await t.db.select().from(listFieldErasures).where(eq(listFieldErasures.schemaId, id)),
      ).toEqual([]);
    },
  );

  it('erases the values of a list larger than one batch', async () => {
    const id = await createList();
    await t.db.execute(sql`
      insert into list_items (id, schema_id, data, t1, n1)
      select ${id} || '-' || g, ${id}, jsonb_build_object('title', 't' || g, 'price', g), 't' || g, g
      from generate_series(1, 12001) g`);
    expect((await del(id, 'price')).status).toBe(204);
    const [left] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from list_items
          where schema_id = ${id} and (data ? 'price' or n1 is not null)`,
    );
    expect(left!.n).toBe(0);
    const [kept] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from list_items
          where schema_id = ${id} and data ? 'title' and t1 is not null`,
    );
    expect(kept!.n).toBe(12001);
  });

  it('frees the slot once erased, and a re-added slug starts empty', async () => {
    const id = await createList();
    await t.db
      .insert(listItems)
      .values({ id: `${id}-1`, schemaId: id, data: { title: 'old' }, t1: 'old' });
    expect((await del(id, 'title')).status).toBe(204);
    expect((await add(id, { name: 'Title again', slug: 'title', type: 'string' })).status).toBe(
      204,
    );
    const fields = await storedFields(id);
    expect(fields.map((f) => [f.slug, f.slot])).toEqual([
      ['price', 'n1'],
      ['title', 't1'],
    ]);
    const [record] = await t.db.select().from(listItems).where(eq(listItems.schemaId, id));
    expect(record).toMatchObject({ data: {}, t1: null });
  });

  it('allows deleting an all-digit slug and the last field', async () => {
    const id = await createList();
    await add(id, { name: 'N', slug: '42', type: 'number' });
    expect((await del(id, '42', 'query')).status).toBe(204);
    expect((await del(id, 'title')).status).toBe(204);
    expect((await del(id, 'price')).status).toBe(204);
    const read = await call(t.app, 'getListSchema', { schema_id: id }, { key: owner.apiKey });
    expect(read.body.data.fields).toEqual({});
  });

  it.each(TRANSPORTS)('answers 422 under slug when no field has it via %s', async (via) => {
    const id = await createList();
    const res = await del(id, 'nope', via);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['slug']);
  });

  it('answers 422 under slug when it is missing, and for a slug deleted twice', async () => {
    const id = await createList();
    const missing = await call(
      t.app,
      'deleteListSchemaField',
      { schema_id: id },
      { key: owner.apiKey },
    );
    expect(Object.keys(missing.body.errors)).toEqual(['slug']);
    expect((await del(id, 'title')).status).toBe(204);
    const twice = await del(id, 'title');
    expect(twice.status).toBe(422);
    expect(Object.keys(twice.body.errors)).toEqual(['slug']);
  });

  it('answers 404 for an unknown or deleted list, 403 for another account’s or a team project’s', async () => {
    expect((await del('missing', 'title')).status).toBe(404);
    const deleted = await createList();
    await call(t.app, 'deleteListSchema', { schema_id: deleted }, { key: owner.apiKey });
    expect((await del(deleted, 'title')).status).toBe(404);
    const foreignId = await createList(other);
    const foreign = await del(foreignId, 'title');
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ message: expect.any(String), error: expect.any(String) });
    expect((await storedFields(foreignId)).map((f) => f.slug)).toEqual(['title', 'price']);
    const shared = await makeInvitedProject(t.db, other, owner);
    expect((await del(await createList(other, shared.projectUuid), 'title')).status).toBe(403);
  });
});

describe('erasing a deleted field’s values when the request is cut short (spec 4.6)', () => {
  it('hides the field at once, holds its slug and slot, and is finished by the background job', async () => {
    const id = await createList();
    await t.db.execute(sql`
      insert into list_items (id, schema_id, data, t1, n1)
      select ${id} || '-' || lpad(g::text, 4, '0'), ${id},
             jsonb_build_object('title', 't' || g, 'price', g), 't' || g, g
      from generate_series(1, 450) g`);

    // The request's first step only, as if the process died right after it.
    const removed = await removeField(t.db, id, 'title', now);
    expect(removed.removed?.slot).toBe('t1');
    const read = await call(t.app, 'getListSchema', { schema_id: id }, { key: owner.apiKey });
    expect(Object.keys(read.body.data.fields)).toEqual(['price']);

    // Until the old values are gone, the slug cannot come back and the slot is not reused.
    const again = await add(id, { name: 'Title', slug: 'title', type: 'string' });
    expect(again.status).toBe(422);
    expect(Object.keys(again.body.errors)).toEqual(['field.slug']);
    expect((await add(id, { name: 'Other', slug: 'other', type: 'string' })).status).toBe(204);
    expect((await storedFields(id)).find((f) => f.slug === 'other')?.slot).toBe('t2');

    // A first eraser stops after two batches; its position is saved.
    let checks = 0;
    const signal = {
      get aborted() {
        return ++checks > 2;
      },
    } as AbortSignal;
    const done = await eraseFieldValues(
      t.db,
      { schemaId: id, slug: 'title', slot: 't1' },
      { batchSize: 100, signal },
    );
    expect(done).toBe(false);
    const [pending] = await t.db
      .select()
      .from(listFieldErasures)
      .where(eq(listFieldErasures.schemaId, id));
    expect(pending!.cursorId).toBe(`${id}-0200`);
    expect(await countWith(id, 'title')).toBe(250);

    // The background job resumes it from there.
    expect(await resumeStaleErasures(t.db, { staleAfterSeconds: 0, batchSize: 100 })).toBe(1);
    expect(await countWith(id, 'title')).toBe(0);
    expect(
      await t.db.select().from(listFieldErasures).where(eq(listFieldErasures.schemaId, id)),
    ).toEqual([]);
    const [prices] = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from list_items where schema_id = ${id} and n1 is not null and data ? 'price'`,
    );
    expect(prices!.n).toBe(450);

    // Idempotent: nothing left to resume; now the slug may come back, onto the freed slot.
    expect(await resumeStaleErasures(t.db, { staleAfterSeconds: 0 })).toBe(0);
    expect((await add(id, { name: 'Title', slug: 'title', type: 'string' })).status).toBe(204);
    expect((await storedFields(id)).find((f) => f.slug === 'title')?.slot).toBe('t1');
  });

  it('answers before a big erase is done and finishes it in the background', async () => {
    const id = await createList();
    await t.db.execute(sql`
      insert into list_items (id, schema_id, data, t1)
      select ${id} || '-' || g, ${id}, jsonb_build_object('title', 't' || g), 't' || g
      from generate_series(1, 300) g`);
    await removeField(t.db, id, 'title', now);
    // Another session holds the rows, so the background erase waits on them and the count
    // below sees exactly what was erased before the answer: nothing, as the request's time
    // is already up (an erase in the answer's path would wait here for good instead).
    const holder = new pg.Client({ connectionString: t.database.url });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select id from list_items where schema_id = $1 for update', [id]);
      const { finished, rest } = await eraseNowOrLater(
        t.db,
        { schemaId: id, slug: 'title', slot: 't1' },
        AbortSignal.abort(),
        { error: () => undefined },
      );
      expect(finished).toBe(false);
      expect(await countWith(id, 'title')).toBe(300);
      await holder.query('commit');
      await rest;
    } finally {
      await holder.end();
    }
    expect(await countWith(id, 'title')).toBe(0);
    expect(
      await t.db.select().from(listFieldErasures).where(eq(listFieldErasures.schemaId, id)),
    ).toEqual([]);
  });

  it('does not resume an erasure whose eraser is still reporting', async () => {
    const id = await createList();
    await t.db
      .insert(listItems)
      .values({ id: `${id}-1`, schemaId: id, data: { title: 'x' }, t1: 'x' });
    await removeField(t.db, id, 'title', now);
    expect(await resumeStaleErasures(t.db, { staleAfterSeconds: 3600 })).toBe(0);
    expect(await countWith(id, 'title')).toBe(1);
  });
});

async function countWith(schemaId: string, slug: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from list_items
        where schema_id = ${schemaId} and (data ? ${slug}::text or t1 is not null)`,
  );
  return row!.n;
}
