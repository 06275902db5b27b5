import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { listSchemas } from '../../src/infra/db/schema/index.js';
import { call, TRANSPORTS } from '../helpers/call.js';
import {
  createProject,
  makeInvitedProject,
  makeTenant,
  type Tenant,
} from '../helpers/factories.js';
import { MANY_CALLS, testAppForFile } from '../helpers/testAppForFile.js';
import { createListViaApi, TITLE_AND_SUM_FIELDS } from '../helpers/viaApi.js';

const t = testAppForFile({ env: MANY_CALLS, tenants: ['other'] });

const createList = (tenant: Tenant, name = 'List', projectUuid = tenant.projectUuid) =>
  createListViaApi(t.app, tenant, TITLE_AND_SUM_FIELDS, { name, projectUuid });

describe('getListSchemas (getListSchemas, the paging envelope)', () => {
  let reader: Tenant;
  const ids: string[] = [];

  beforeAll(async () => {
    reader = await makeTenant(t.db);
    const second = await createProject(t.db, reader.accountId, 'Second');
    // 120 lists in two projects, with known creation times (two share one, to test the tie-break).
    const base = Date.UTC(2024, 0, 1);
    const rows = Array.from({ length: 120 }, (_, i) => ({
      id: `list-${String(1000 - i).padStart(4, '0')}`,
      projectUuid: i % 2 === 0 ? reader.projectUuid : second.uuid,
      ownerId: reader.accountId,
      botId: null,
      name: `L${i}`,
      fields: [
        {
          slug: 'a',
          name: 'A',
          type: 'string',
          is_required: true,
          is_hidden: false,
          is_encryptable: false,
        },
      ],
      createdAt: new Date(base + Math.max(i, 1) * 1000),
      updatedAt: new Date(base + Math.max(i, 1) * 1000),
    }));
    await t.db.insert(listSchemas).values(rows);
    // Expected order: created_at, then id (rows 0 and 1 share a time; "list-0999" < "list-1000").
    ids.push(rows[1]!.id, rows[0]!.id, ...rows.slice(2).map((r) => r.id));
    // Not listed: a deleted list, another account's, and one in a project the reader is only invited to.
    await t.db.insert(listSchemas).values({
      ...rows[0]!,
      id: 'deleted-one',
      deletedAt: new Date(),
    });
    await createList(t.other);
    const shared = await makeInvitedProject(t.db, t.other, reader);
    await createList(t.other, 'Shared', shared.projectUuid);
  });

  it.each(TRANSPORTS)('returns the first 50 lists with the paging envelope via %s', async (via) => {
    const res = await call(t.app, 'getListSchemas', {}, { key: reader.apiKey, via });
    expect(res.status).toBe(200);
    expect(res.body.data.map((l: { id: string }) => l.id)).toEqual(ids.slice(0, 50));
    expect(res.body.links).toEqual({
      first: 'http://api.test/api/v1/getListSchemas?page=1',
      last: 'http://api.test/api/v1/getListSchemas?page=3',
      prev: null,
      next: 'http://api.test/api/v1/getListSchemas?page=2',
    });
    expect(res.body.meta).toEqual({
      current_page: 1,
      from: 1,
      last_page: 3,
      path: 'http://api.test/api/v1/getListSchemas',
      per_page: 50,
      to: 50,
      total: 120,
    });
    expect(res.body.data[0]).toMatchObject({ name: 'L1', fields: { a: { type: 'string' } } });
  });

  it.each(TRANSPORTS)('returns the last page with the remaining lists via %s', async (via) => {
    const res = await call(t.app, 'getListSchemas', { page: '3' }, { key: reader.apiKey, via });
    expect(res.status).toBe(200);
    expect(res.body.data.map((l: { id: string }) => l.id)).toEqual(ids.slice(100));
    expect(res.body.links.prev).toBe('http://api.test/api/v1/getListSchemas?page=2');
    expect(res.body.links.next).toBeNull();
    expect(res.body.meta).toMatchObject({ current_page: 3, from: 101, to: 120, total: 120 });
  });

  it('walks every list exactly once by following links.next', async () => {
    const seen: string[] = [];
    let page = 1;
    for (;;) {
      const res = await call(t.app, 'getListSchemas', { page }, { key: reader.apiKey });
      seen.push(...res.body.data.map((l: { id: string }) => l.id));
      if (res.body.links.next === null) break;
      page = Number(new URL(res.body.links.next).searchParams.get('page'));
    }
    expect(seen).toEqual(ids);
  });

  it('returns an empty page past the end', async () => {
    const res = await call(t.app, 'getListSchemas', { page: 9 }, { key: reader.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta).toMatchObject({
      current_page: 9,
      from: null,
      to: null,
      total: 120,
      last_page: 3,
    });
  });

  it('returns an empty first page to an account without lists', async () => {
    const empty = await makeTenant(t.db);
    const res = await call(t.app, 'getListSchemas', {}, { key: empty.apiKey });
    expect(res.body).toMatchObject({
      data: [],
      links: { prev: null, next: null, last: 'http://api.test/api/v1/getListSchemas?page=1' },
      meta: { total: 0, last_page: 1, from: null, to: null },
    });
  });

  it('treats an empty page value as page 1', async () => {
    const res = await call(
      t.app,
      'getListSchemas',
      { page: '' },
      { key: reader.apiKey, via: 'query' },
    );
    expect(res.status).toBe(200);
    expect(res.body.meta.current_page).toBe(1);
  });

  it.each([0, -1, 'abc', 1.5, '2x'])('answers 422 under page for page=%j', async (page) => {
    const res = await call(t.app, 'getListSchemas', { page }, { key: reader.apiKey });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['page']);
  });

  it('shows a list created through the API in its owner’s listing', async () => {
    const fresh = await makeTenant(t.db);
    const list = await createList(fresh);
    const res = await call(t.app, 'getListSchemas', {}, { key: fresh.apiKey });
    const [row] = await t.db.select().from(listSchemas).where(eq(listSchemas.id, list.id));
    expect(res.body.data).toEqual([
      expect.objectContaining({
        id: list.id,
        project: fresh.projectUuid,
        created_at: row!.createdAt.toISOString(),
      }),
    ]);
  });
});
