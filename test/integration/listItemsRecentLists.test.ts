import { describe, expect, it } from 'vitest';
import { call } from '../helpers/call.js';
import { onEveryStatement } from '../helpers/sentStatements.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

/**
 * addListItem remembers the lists it inserted into (src/lists/items/recentLists.ts) and
 * skips their lookup, and so does getListItems for a filter never sent before
 * (src/lists/items/listRead.ts). Every change made behind their back must still be answered
 * from the database's current list.
 */
const t = testAppForFile({ redis: false, tenants: ['owner', 'other'] });

async function newList(fields: Record<string, unknown>[]) {
  const res = await call(
    t.app,
    'createListSchema',
    { project_uuid: t.owner.projectUuid, name: 'Recent', fields },
    { key: t.owner.apiKey },
  );
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

/** A list method called with the owner's key. */
const asOwner = (method: string, params: Record<string, unknown>) =>
  call(t.app, method, params, { key: t.owner.apiKey });

const add = (schemaId: string, data: Record<string, unknown>, key = t.owner.apiKey) =>
  call(t.app, 'addListItem', { schema_id: schemaId, data }, { key });

/** Postgres queries sent while `run` runs, counted at the real client. */
let counting: { sent: number } | undefined;
/** where the text of each statement goes while a test collects them */
let statementSink: ((text: string) => void) | undefined;
onEveryStatement(({ text }) => {
  if (counting) counting.sent++;
  statementSink?.(text);
});
async function queriesDuring(run: () => Promise<unknown>): Promise<number> {
  const during = { sent: 0 };
  counting = during;
  try {
    await run();
  } finally {
    counting = undefined;
  }
  return during.sent;
}

const field = (slug: string, type: string, isRequired = false) => ({
  slug,
  name: slug,
  type,
  is_required: isRequired,
});

describe('addListItem with a remembered list', () => {
  it('skips the list lookup on the next insert into the same list', async () => {
    const id = await newList([field('title', 'string')]);
    const first = await queriesDuring(() => add(id, { title: 'a' }));
    const second = await queriesDuring(() => add(id, { title: 'b' }));
    expect(second).toBe(first - 1);
  });

  it('accepts a record without a required field deleted since', async () => {
    const id = await newList([field('title', 'string', true), field('note', 'string')]);
    expect((await add(id, { title: 't' })).status).toBe(201);
    const removed = await call(
      t.app,
      'deleteListSchemaField',
      { schema_id: id, slug: 'title' },
      { key: t.owner.apiKey },
    );
    expect(removed.status).toBe(204);
    const res = await add(id, { note: 'n' });
    expect(res.status).toBe(201);
    expect(res.body.data).not.toHaveProperty('title');
  });

  it('refuses a record without a required field added since, and stores a new field', async () => {
    const id = await newList([field('title', 'string')]);
    expect((await add(id, { title: 't' })).status).toBe(201);
    const added = await call(
      t.app,
      'addListSchemaField',
      { schema_id: id, field: field('score', 'number', true) },
      { key: t.owner.apiKey },
    );
    expect(added.status).toBe(204);
    const refused = await add(id, { title: 'u' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toHaveProperty(['data.score']);
    const stored = await add(id, { title: 'v', score: '7' });
    expect(stored.status).toBe(201);
    expect(stored.body.data.score).toBe(7);
  });

  it('answers 404 once the list is deleted, and 403 to another account', async () => {
    const id = await newList([field('title', 'string')]);
    expect((await add(id, { title: 't' })).status).toBe(201);
    expect((await add(id, { title: 'x' }, t.other.apiKey)).status).toBe(403);
    expect((await add(id, { title: 'u' })).status).toBe(201);
    const deleted = await asOwner('deleteListSchema', { schema_id: id });
    expect(deleted.status).toBe(204);
    const res = await add(id, { title: 'v' });
    expect(res.status).toBe(404);
    expect(res.body.errors).toHaveProperty('schema_id');
  });
});

describe('getListItems with a remembered list: a filter never sent before', () => {
  const deleteField = (schemaId: string, slug: string) =>
    asOwner('deleteListSchemaField', { schema_id: schemaId, slug });
  const read = (schemaId: string, params: Record<string, unknown>, key = t.owner.apiKey) =>
    call(t.app, 'getListItems', { schema_id: schemaId, ...params }, { key });

  it('counts without reading the list first, in one statement with the list', async () => {
    const id = await newList([field('title', 'string')]);
    for (const title of ['a', 'b', 'b']) expect((await add(id, { title })).status).toBe(201);
    expect((await read(id, {})).status).toBe(200);
    const sent: string[] = [];
    const record = (text: string) => sent.push(text);
    const res = await (async () => {
      statementSink = record;
      try {
        return await read(id, { filters: { title: 'b' } });
      } finally {
        statementSink = undefined;
      }
    })();
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(2);
    expect(res.body.data.map((r: { title: string }) => r.title)).toEqual(['b', 'b']);
    // the count (with the list's row) and the page: no lookup of the list before them
    const ofLists = sent.filter((text) => /list_schemas|list_items/.test(text));
    expect(ofLists).toHaveLength(2);
    expect(ofLists[0]).toMatch(/count\(\*\)[\s\S]*list_schemas/);
  });

  it('answers with the fields as they are now, after a field was added and one deleted', async () => {
    const id = await newList([field('title', 'string'), field('note', 'string')]);
    expect((await add(id, { title: 't', note: 'n' })).status).toBe(201);
    expect((await read(id, {})).status).toBe(200);
    const added = await call(
      t.app,
      'addListSchemaField',
      { schema_id: id, field: field('score', 'number') },
      { key: t.owner.apiKey },
    );
    expect(added.status).toBe(204);
    expect((await add(id, { title: 't', score: '5' })).status).toBe(201);
    const scored = await read(id, { filters: { score: '>,1' } });
    expect(scored.status).toBe(200);
    expect(scored.body.meta.total).toBe(1);
    expect(scored.body.data[0]).toMatchObject({ title: 't', score: 5, note: null });
    const removed = await deleteField(id, 'note');
    expect(removed.status).toBe(204);
    // a filter on the deleted field is skipped, as on a fresh read, and no record shows it
    const res = await read(id, { filters: { note: 'n', title: 't' } });
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(2);
    for (const item of res.body.data) expect(item).not.toHaveProperty('note');
  });

  it('refuses an order the fields now refuse, and answers 404 once the list is deleted', async () => {
    const id = await newList([field('title', 'string'), field('rank', 'number')]);
    expect((await add(id, { title: 't', rank: '1' })).status).toBe(201);
    expect((await read(id, {})).status).toBe(200);
    const removed = await deleteField(id, 'rank');
    expect(removed.status).toBe(204);
    const refused = await read(id, { filters: { title: 'x' }, order_by: 'rank,asc' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toHaveProperty('order_by');
    expect((await read(id, { filters: { title: 't' } }, t.other.apiKey)).status).toBe(403);
    const deleted = await asOwner('deleteListSchema', { schema_id: id });
    expect(deleted.status).toBe(204);
    const gone = await read(id, { filters: { title: 'y' } });
    expect(gone.status).toBe(404);
    expect(gone.body.errors).toHaveProperty('schema_id');
  });
});
