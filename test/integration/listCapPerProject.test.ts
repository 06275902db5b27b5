import { count, eq, isNull, and, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { listSchemas, projects } from '../../src/infra/db/schema/index.js';
import { call } from '../helpers/call.js';
import { createProject, makeTenant, type Tenant } from '../helpers/factories.js';
import { MANY_CALLS, testAppForFile } from '../helpers/testAppForFile.js';

const t = testAppForFile({ env: MANY_CALLS, listen: true });

const FIELDS = [{ name: 'Title', slug: 'title', type: 'string' }];
const LIMIT_TEXT = 'A project cannot have more than 5000 lists.';

/** Fills a project with `n` lists straight in the table and sets its counter to match. */
async function fillProject(tenant: Tenant, n: number): Promise<void> {
  await t.db.execute(sql`
    insert into list_schemas (id, project_uuid, owner_id, name, fields)
    select ${tenant.projectUuid} || '-' || g, ${tenant.projectUuid}::uuid, ${tenant.accountId}, 'L' || g,
           '[{"slug":"a","name":"A","type":"string","is_required":true,"is_hidden":false,"is_encryptable":false}]'
    from generate_series(1, ${n}::int) g`);
  await t.db.update(projects).set({ listCount: n }).where(eq(projects.uuid, tenant.projectUuid));
}

async function liveLists(projectUuid: string): Promise<number> {
  const [row] = await t.db
    .select({ n: count() })
    .from(listSchemas)
    .where(and(eq(listSchemas.projectUuid, projectUuid), isNull(listSchemas.deletedAt)));
  return Number(row!.n);
}

async function counter(projectUuid: string): Promise<number> {
  const [p] = await t.db.select().from(projects).where(eq(projects.uuid, projectUuid));
  return p!.listCount;
}

/** A real HTTP request to the listening server, so concurrent calls really overlap. */
async function createOverHttp(tenant: Tenant, i: number) {
  const res = await fetch(`${t.baseUrl}/api/v1/createListSchema`, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      authorization: `Bearer ${tenant.apiKey}`,
    },
    body: JSON.stringify({ name: `C${i}`, project_uuid: tenant.projectUuid, fields: FIELDS }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('the 5000-lists-per-project limit (createListSchema)', () => {
  it('lets exactly 10 of 50 concurrent creates into a project holding 4990 lists', async () => {
    const tenant = await makeTenant(t.db);
    await fillProject(tenant, 4990);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => createOverHttp(tenant, i)),
    );

    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(40);
    for (const r of refused) {
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ message: LIMIT_TEXT, error: LIMIT_TEXT });
    }
    expect(await liveLists(tenant.projectUuid)).toBe(5000);
    expect(await counter(tenant.projectUuid)).toBe(5000);
  });

  it('refuses the 5001st list via the bot too, and accepts one again after a delete', async () => {
    const tenant = await makeTenant(t.db);
    await fillProject(tenant, 5000);
    const viaBot = await call(
      t.app,
      'createListSchema',
      { name: 'X', bot_id: tenant.botId, fields: FIELDS },
      { key: tenant.apiKey },
    );
    expect(viaBot.status).toBe(403);
    expect(viaBot.body.message).toBe(LIMIT_TEXT);

    const del = await call(
      t.app,
      'deleteListSchema',
      { schema_id: `${tenant.projectUuid}-1` },
      { key: tenant.apiKey },
    );
    expect(del.status).toBe(204);
    expect(await counter(tenant.projectUuid)).toBe(4999);
    const res = await call(
      t.app,
      'createListSchema',
      { name: 'Back under', project_uuid: tenant.projectUuid, fields: FIELDS },
      { key: tenant.apiKey },
    );
    expect(res.status).toBe(201);
    expect(await counter(tenant.projectUuid)).toBe(5000);
    expect(await liveLists(tenant.projectUuid)).toBe(5000);
  });

  it('counts per project: a full project does not block the owner’s other projects', async () => {
    const tenant = await makeTenant(t.db);
    await fillProject(tenant, 5000);
    const second = await createProject(t.db, tenant.accountId, 'Second');
    const res = await call(
      t.app,
      'createListSchema',
      { name: 'Elsewhere', project_uuid: second.uuid, fields: FIELDS },
      { key: tenant.apiKey },
    );
    expect(res.status).toBe(201);
  });
});
