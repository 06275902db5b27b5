import { count, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/infra/db/client.js';
import {
  listFieldErasures,
  listItems,
  listSchemas,
  projects,
} from '../../src/infra/db/schema/index.js';
import { reclaimDeletedLists } from '../../src/lists/schemas/reclaim.js';
import { startMaintenanceLoop } from '../../src/maintenanceLoop.js';
import { call, TRANSPORTS } from '../helpers/call.js';
import { makeInvitedProject, type Tenant } from '../helpers/factories.js';
import { MANY_CALLS, testAppForFile } from '../helpers/testAppForFile.js';
import { createListViaApi } from '../helpers/viaApi.js';
import { listKeyInsert } from '../../src/lists/items/listKeyInsert.js';

const t = testAppForFile({ env: MANY_CALLS, tenants: ['owner', 'other'] });

const FIELDS = [{ name: 'Title', slug: 'title', type: 'string' }];

const createList = async (tenant: Tenant, projectUuid = tenant.projectUuid) =>
  (await createListViaApi(t.app, tenant, FIELDS, { projectUuid })).id;

/** Records written straight into the table, as many as a test needs. */
async function insertItems(db: Database, schemaId: string, n: number): Promise<void> {
  const key = await listKeyInsert(db, schemaId);
  await db.execute(sql`
    insert into list_items (id, schema_id, owner_id, data, t1${key.column})
    select ${schemaId} || '-' || g, ${schemaId},
           (select owner_id from list_schemas where id = ${schemaId}), jsonb_build_object('title', 'v' || g), 'v' || g${key.value}
    from generate_series(1, ${n}::int) g`);
}

async function itemCount(schemaId: string): Promise<number> {
  const [row] = await t.db
    .select({ n: count() })
    .from(listItems)
    .where(eq(listItems.schemaId, schemaId));
  return Number(row!.n);
}

async function listCount(projectUuid: string): Promise<number> {
  const [p] = await t.db.select().from(projects).where(eq(projects.uuid, projectUuid));
  return p!.listCount;
}

const del = (schemaId: string, key = t.owner.apiKey, via: 'query' | 'json' | 'form' = 'json') =>
  call(t.app, 'deleteListSchema', { schema_id: schemaId }, { key, via });

describe('deleteListSchema (deleteListSchema)', () => {
  it.each(TRANSPORTS)('answers 204 with no body and the list is gone via %s', async (via) => {
    const id = await createList(t.owner);
    const before = await listCount(t.owner.projectUuid);
    const res = await del(id, t.owner.apiKey, via);
    expect(res.status).toBe(204);
    expect(res.raw.body).toBe('');
    expect(
      (await call(t.app, 'getListSchema', { schema_id: id }, { key: t.owner.apiKey })).status,
    ).toBe(404);
    const all = await call(t.app, 'getListSchemas', {}, { key: t.owner.apiKey });
    expect(all.body.data.map((l: { id: string }) => l.id)).not.toContain(id);
    expect(await listCount(t.owner.projectUuid)).toBe(before - 1);
  });

  it('answers 404 with errors.schema_id to a second delete, and counts the list once', async () => {
    const id = await createList(t.owner);
    const before = await listCount(t.owner.projectUuid);
    expect((await del(id)).status).toBe(204);
    const again = await del(id);
    expect(again.status).toBe(404);
    expect(again.body.errors.schema_id).toEqual([expect.any(String)]);
    expect(await listCount(t.owner.projectUuid)).toBe(before - 1);
  });

  it('lets exactly one of several concurrent deletes of a list succeed', async () => {
    const id = await createList(t.owner);
    const before = await listCount(t.owner.projectUuid);
    const results = await Promise.all(Array.from({ length: 8 }, () => del(id)));
    expect(results.map((r) => r.status).sort()).toEqual([204, 404, 404, 404, 404, 404, 404, 404]);
    expect(await listCount(t.owner.projectUuid)).toBe(before - 1);
  });

  it('answers 404 for a list that never existed', async () => {
    expect((await del('nope')).status).toBe(404);
  });

  it('answers 403 for another account’s list and leaves it in place', async () => {
    const id = await createList(t.other);
    const res = await del(id);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: expect.any(String), error: expect.any(String) });
    expect(
      (await call(t.app, 'getListSchema', { schema_id: id }, { key: t.other.apiKey })).status,
    ).toBe(200);
  });

  it('answers 403 for a list in a project the caller is only a team member of (the API conventions)', async () => {
    const shared = await makeInvitedProject(t.db, t.other, t.owner);
    const id = await createList(t.other, shared.projectUuid);
    expect((await del(id)).status).toBe(403);
  });

  it('answers 422 under schema_id when it is missing', async () => {
    const res = await call(t.app, 'deleteListSchema', {}, { key: t.owner.apiKey });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['schema_id']);
  });

  it('makes the list’s records unreachable at once, before any reclaim (the list states, 4.4)', async () => {
    const id = await createList(t.owner);
    const added = await call(
      t.app,
      'addListItem',
      { schema_id: id, data: { title: 'kept?' } },
      { key: t.owner.apiKey },
    );
    expect(added.status).toBe(201);
    const itemId = added.body.data.id;
    expect((await del(id)).status).toBe(204);
    expect(await itemCount(id)).toBe(1);

    const key = { key: t.owner.apiKey };
    expect((await call(t.app, 'getListItems', { schema_id: id }, key)).status).toBe(404);
    const update = await call(
      t.app,
      'updateListItem',
      { item_id: itemId, data: { title: 'x' } },
      key,
    );
    expect(update.status).toBe(404);
    expect((await call(t.app, 'deleteListItem', { item_id: itemId }, key)).status).toBe(404);
    expect(
      (await call(t.app, 'addListItem', { schema_id: id, data: { title: 'y' } }, key)).status,
    ).toBe(404);
  });

  it('leaves a big list’s records to the background job instead of deleting them in the request', async () => {
    const id = await createList(t.owner);
    await insertItems(t.db, id, 20_000);
    expect((await del(id)).status).toBe(204);
    // The answer did not wait for 20,000 deletes; the records are unreachable through the list.
    expect(await itemCount(id)).toBe(20_000);
    const [row] = await t.db.select().from(listSchemas).where(eq(listSchemas.id, id));
    expect(row!.deletedAt).toBeInstanceOf(Date);
    await reclaimDeletedLists(t.db);
    expect(await itemCount(id)).toBe(0);
  });
});

describe('reclaiming deleted lists’ records (deleteListSchema, lists/schemas/reclaim.ts)', () => {
  it('deletes the records of deleted lists in batches and touches live lists not at all', async () => {
    const gone = await createList(t.owner);
    const kept = await createList(t.owner);
    await insertItems(t.db, gone, 12_345);
    await insertItems(t.db, kept, 100);
    await del(gone);

    const report = await reclaimDeletedLists(t.db, { batchSize: 5000 });
    expect(report).toMatchObject({ items: 12_345, batches: 3 });
    expect(await itemCount(gone)).toBe(0);
    expect(await itemCount(kept)).toBe(100);
  });

  it('is idempotent: a second run finds nothing to do', async () => {
    const gone = await createList(t.owner);
    await insertItems(t.db, gone, 300);
    await del(gone);
    expect((await reclaimDeletedLists(t.db, { batchSize: 100 })).items).toBe(300);
    expect(await reclaimDeletedLists(t.db, { batchSize: 100 })).toMatchObject({
      items: 0,
      batches: 0,
    });
  });

  it('stops between batches when asked and finishes on the next run', async () => {
    const gone = await createList(t.owner);
    await insertItems(t.db, gone, 1000);
    await reclaimDeletedLists(t.db, { graceSeconds: 0 }); // no other deleted list left to visit
    await del(gone);
    let checks = 0;
    // Aborts after a few checks: the first run is cut short mid-list, like a shutdown.
    const signal = {
      get aborted() {
        return ++checks > 3;
      },
    } as AbortSignal;
    const first = await reclaimDeletedLists(t.db, { batchSize: 100, signal });
    expect(first.items).toBeGreaterThan(0);
    expect(await itemCount(gone)).toBe(1000 - first.items);
    expect(await itemCount(gone)).toBeGreaterThan(0);
    await reclaimDeletedLists(t.db, { batchSize: 100 });
    expect(await itemCount(gone)).toBe(0);
  });

  it('keeps the deleted list’s row during the grace period and removes it, with its erasures, after', async () => {
    const gone = await createList(t.owner);
    await insertItems(t.db, gone, 10);
    await t.db
      .insert(listFieldErasures)
      .values({ schemaId: gone, slug: 'old', slot: 't2', ownerId: t.owner.accountId });
    await del(gone);

    await reclaimDeletedLists(t.db);
    expect(await t.db.select().from(listSchemas).where(eq(listSchemas.id, gone))).toHaveLength(1);

    const report = await reclaimDeletedLists(t.db, { graceSeconds: 0 });
    expect(report.lists).toBeGreaterThanOrEqual(1);
    expect(await t.db.select().from(listSchemas).where(eq(listSchemas.id, gone))).toHaveLength(0);
    expect(
      await t.db.select().from(listFieldErasures).where(eq(listFieldErasures.schemaId, gone)),
    ).toHaveLength(0);
  });

  it('never removes a live list or its records', async () => {
    const live = await createList(t.owner);
    await insertItems(t.db, live, 50);
    await reclaimDeletedLists(t.db, { graceSeconds: 0 });
    expect(await itemCount(live)).toBe(50);
    expect(
      (await call(t.app, 'getListSchema', { schema_id: live }, { key: t.owner.apiKey })).status,
    ).toBe(200);
  });

  it('runs in the background loop the server starts, and stops cleanly', async () => {
    const gone = await createList(t.owner);
    await insertItems(t.db, gone, 2000);
    await del(gone);
    const loop = startMaintenanceLoop(
      t.db,
      { info: () => undefined, warn: () => undefined, error: () => undefined },
      {
        intervalMs: 50,
      },
    );
    try {
      for (let i = 0; i < 100 && (await itemCount(gone)) > 0; i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await loop.stop();
    }
    expect(await itemCount(gone)).toBe(0);
  });
});
