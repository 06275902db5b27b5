import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { listItems, listSchemas } from '../../src/infra/db/schema/index.js';
import { MAX_FIELDS_PER_LIST } from '../../src/lists/schemas/fieldRepository.js';
import { call, TRANSPORTS } from '../helpers/call.js';
import { makeInvitedProject } from '../helpers/factories.js';
import { insertRecordRows } from '../helpers/records.js';
import { listFieldCalls } from '../helpers/listFieldCalls.js';
import { MANY_CALLS, testAppForFile } from '../helpers/testAppForFile.js';

let now = new Date('2025-01-01T10:00:00.000Z');

const t = testAppForFile({
  env: MANY_CALLS,
  clock: () => now,
  tenants: ['owner', 'other'],
  listen: true,
});

const { createList, storedFields, add } = listFieldCalls(t);

/** A real HTTP request to the listening server, so concurrent calls really overlap. */
async function post(method: string, body: unknown, key = t.owner.apiKey) {
  const res = await fetch(`${t.baseUrl}/api/v1/${method}`, {
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

describe('addListSchemaField (addListSchemaField)', () => {
  it.each(TRANSPORTS)('adds a field at the end with its defaults via %s', async (via) => {
    now = new Date('2025-01-01T10:00:00.000Z');
    const id = await createList();
    now = new Date('2025-02-02T12:00:00.000Z');
    const res = await add(id, { name: 'Note', slug: 'note', type: 'string' }, via);
    expect(res.status).toBe(204);
    expect(res.raw.body).toBe('');

    const read = await call(t.app, 'getListSchema', { schema_id: id }, { key: t.owner.apiKey });
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
    const read = await call(t.app, 'getListSchema', { schema_id: id }, { key: t.owner.apiKey });
    expect(read.body.data.fields.f).toMatchObject({
      is_required: false,
      is_hidden: true,
      is_encryptable: true,
    });
  });

  it('keeps an all-digit slug at the end of the fields', async () => {
    const id = await createList();
    expect((await add(id, { name: 'Seven', slug: '7', type: 'number' })).status).toBe(204);
    const read = await call(t.app, 'getListSchema', { schema_id: id }, { key: t.owner.apiKey });
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
    const read = await call(t.app, 'getListSchema', { schema_id: id }, { key: t.owner.apiKey });
    expect(read.body.data.fields.yen.currency).toBe('JPY');
    expect(read.body.data.fields.s).not.toHaveProperty('currency');
  });

  it('gives the new field a free storage slot and does not touch existing records', async () => {
    const id = await createList();
    await insertRecordRows(t.db, {
      id: `${id}-r`,
      schemaId: id,
      ownerId: t.owner.accountId,
      data: { title: 'x' },
      t1: 'x',
    });
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
      { key: t.owner.apiKey },
    );
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(keys);
    expect((await storedFields(id)).map((f) => f.slug)).toEqual(['title', 'price']);
  });

  it('lists every failing field in one 422, the taken slug included (the error rules)', async () => {
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
    const res = await call(t.app, 'addListSchemaField', { schema_id: id }, { key: t.owner.apiKey });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['field']);
  });

  it('answers 422 under schema_id, with the field’s errors, when schema_id is missing', async () => {
    const res = await call(
      t.app,
      'addListSchemaField',
      { field: { slug: 'a' } },
      { key: t.owner.apiKey },
    );
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['field.name', 'field.type', 'schema_id']);
  });

  it('answers 404 for an unknown or deleted list, 403 for another account’s or a team project’s', async () => {
    const field = { name: 'N', slug: 'n', type: 'string' };
    expect((await add('missing', field)).status).toBe(404);
    const deleted = await createList();
    await call(t.app, 'deleteListSchema', { schema_id: deleted }, { key: t.owner.apiKey });
    const gone = await add(deleted, field);
    expect(gone.status).toBe(404);
    expect(gone.body.errors.schema_id).toHaveLength(1);

    const foreign = await add(await createList(t.other), field);
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ message: expect.any(String), error: expect.any(String) });
    const shared = await makeInvitedProject(t.db, t.other, t.owner);
    expect((await add(await createList(t.other, shared.projectUuid), field)).status).toBe(403);
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
