import { describe, expect, it } from 'vitest';
import { call } from '../helpers/call.js';
import { onEveryStatement } from '../helpers/sentStatements.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

/**
 * addListItem remembers the lists it inserted into (src/lists/items/recentLists.ts) and
 * skips their lookup. Every change made behind its back must still be answered from the
 * database's current list.
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

const add = (schemaId: string, data: Record<string, unknown>, key = t.owner.apiKey) =>
  call(t.app, 'addListItem', { schema_id: schemaId, data }, { key });

/** Postgres queries sent while `run` runs, counted at the real client. */
let counting: { sent: number } | undefined;
onEveryStatement(() => {
  if (counting) counting.sent++;
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
    const deleted = await call(
      t.app,
      'deleteListSchema',
      { schema_id: id },
      { key: t.owner.apiKey },
    );
    expect(deleted.status).toBe(204);
    const res = await add(id, { title: 'v' });
    expect(res.status).toBe(404);
    expect(res.body.errors).toHaveProperty('schema_id');
  });
});
