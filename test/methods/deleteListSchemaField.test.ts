import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/infra/db/client.js';
import { listFieldErasures, listItems } from '../../src/infra/db/schema/index.js';
import {
  eraseFieldValues,
  eraseNowOrLater,
  resumeStaleErasures,
} from '../../src/lists/schemas/fieldErasure.js';
import { removeField } from '../../src/lists/schemas/fieldRepository.js';
import { call, TRANSPORTS } from '../helpers/call.js';
import { makeInvitedProject } from '../helpers/factories.js';
import { insertRecordRows } from '../helpers/records.js';
import { listKeyInsert } from '../../src/lists/items/listKeyInsert.js';
import { listFieldCalls } from '../helpers/listFieldCalls.js';
import { MANY_CALLS, testAppForFile } from '../helpers/testAppForFile.js';

let now = new Date('2025-01-01T10:00:00.000Z');

const t = testAppForFile({ env: MANY_CALLS, clock: () => now, tenants: ['owner', 'other'] });

const { createList, storedFields, add } = listFieldCalls(t);

async function countWith(schemaId: string, slug: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.db,
    sql`select count(*)::int as n from list_items
        where schema_id = ${schemaId} and (data ? ${slug}::text or t1 is not null)`,
  );
  return row!.n;
}

describe('deleteListSchemaField (deleteListSchemaField)', () => {
  const del = (
    schemaId: string,
    slug: unknown,
    via: 'query' | 'json' | 'form' = 'json',
    key = t.owner.apiKey,
  ) => call(t.app, 'deleteListSchemaField', { schema_id: schemaId, slug }, { key, via });

  it.each(TRANSPORTS)(
    'removes the field and erases its values from every record via %s',
    async (via) => {
      const id = await createList();
      const otherList = await createList();
      await add(id, { name: 'Note', slug: 'note', type: 'string' });
      await insertRecordRows(t.db, [
        {
          id: `${id}-1`,
          schemaId: id,
          ownerId: t.owner.accountId,
          data: { title: 'a', price: 1.5, note: 'n' },
          t1: 'a',
          n1: '1.5',
          t2: 'n',
        },
        { id: `${id}-2`, schemaId: id, ownerId: t.owner.accountId, data: { title: 'b' }, t1: 'b' },
        {
          id: `${otherList}-1`,
          schemaId: otherList,
          ownerId: t.owner.accountId,
          data: { title: 'c', price: 2 },
          t1: 'c',
          n1: '2',
        },
      ]);
      now = new Date('2025-03-03T00:00:00.000Z');
      const res = await del(id, 'price', via);
      expect(res.status).toBe(204);
      expect(res.raw.body).toBe('');

      const read = await call(t.app, 'getListSchema', { schema_id: id }, { key: t.owner.apiKey });
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
    const key = await listKeyInsert(t.db, id);
    await t.db.execute(sql`
      insert into list_items (id, schema_id, owner_id, data, t1, n1${key.column})
      select ${id} || '-' || g, ${id}, ${t.owner.accountId}, jsonb_build_object('title', 't' || g, 'price', g), 't' || g, g${key.value}
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
    await insertRecordRows(t.db, {
      id: `${id}-1`,
      schemaId: id,
      ownerId: t.owner.accountId,
      data: { title: 'old' },
      t1: 'old',
    });
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
    const read = await call(t.app, 'getListSchema', { schema_id: id }, { key: t.owner.apiKey });
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
      { key: t.owner.apiKey },
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
    await call(t.app, 'deleteListSchema', { schema_id: deleted }, { key: t.owner.apiKey });
    expect((await del(deleted, 'title')).status).toBe(404);
    const foreignId = await createList(t.other);
    const foreign = await del(foreignId, 'title');
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ message: expect.any(String), error: expect.any(String) });
    expect((await storedFields(foreignId)).map((f) => f.slug)).toEqual(['title', 'price']);
    const shared = await makeInvitedProject(t.db, t.other, t.owner);
    expect((await del(await createList(t.other, shared.projectUuid), 'title')).status).toBe(403);
  });
});

describe('erasing a deleted field’s values when the request is cut short (deleteListSchemaField)', () => {
  it('hides the field at once, holds its slug and slot, and is finished by the background job', async () => {
    const id = await createList();
    const key = await listKeyInsert(t.db, id);
    await t.db.execute(sql`
      insert into list_items (id, schema_id, owner_id, data, t1, n1${key.column})
      select ${id} || '-' || lpad(g::text, 4, '0'), ${id}, ${t.owner.accountId},
             jsonb_build_object('title', 't' || g, 'price', g), 't' || g, g${key.value}
      from generate_series(1, 450) g`);

    // The request's first step only, as if the process died right after it.
    const removed = await removeField(t.db, t.owner.accountId, id, 'title', now);
    expect(removed.removed?.slot).toBe('t1');
    const read = await call(t.app, 'getListSchema', { schema_id: id }, { key: t.owner.apiKey });
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
      { ownerId: t.owner.accountId, schemaId: id, slug: 'title', slot: 't1' },
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
    const key = await listKeyInsert(t.db, id);
    await t.db.execute(sql`
      insert into list_items (id, schema_id, owner_id, data, t1${key.column})
      select ${id} || '-' || g, ${id}, ${t.owner.accountId}, jsonb_build_object('title', 't' || g), 't' || g${key.value}
      from generate_series(1, 300) g`);
    await removeField(t.db, t.owner.accountId, id, 'title', now);
    // Another session holds the rows, so the background erase waits on them and the count
    // below sees exactly what was erased before the answer: nothing, as the request's time
    // is already up (an erase in the answer's path would wait here for good instead).
    const holder = new pg.Client({ connectionString: t.database.url });
    await holder.connect();
    try {
      await holder.query('begin');
      // by owner too: Citus locks rows of one shard only (FOR UPDATE across shards is refused)
      await holder.query(
        'select id from list_items where owner_id = $1 and schema_id = $2 for update',
        [t.owner.accountId, id],
      );
      const { finished, rest } = await eraseNowOrLater(
        t.db,
        { ownerId: t.owner.accountId, schemaId: id, slug: 'title', slot: 't1' },
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
    await insertRecordRows(t.db, {
      id: `${id}-1`,
      schemaId: id,
      ownerId: t.owner.accountId,
      data: { title: 'x' },
      t1: 'x',
    });
    await removeField(t.db, t.owner.accountId, id, 'title', now);
    expect(await resumeStaleErasures(t.db, { staleAfterSeconds: 3600 })).toBe(0);
    expect(await countWith(id, 'title')).toBe(1);
  });
});
