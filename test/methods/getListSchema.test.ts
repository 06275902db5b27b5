import { describe, expect, it } from 'vitest';
import { call, TRANSPORTS } from '../helpers/call.js';
import { makeInvitedProject, type Tenant } from '../helpers/factories.js';
import { MANY_CALLS, testAppForFile } from '../helpers/testAppForFile.js';
import { createListViaApi, TITLE_AND_SUM_FIELDS } from '../helpers/viaApi.js';

const t = testAppForFile({ env: MANY_CALLS, tenants: ['owner', 'other'] });

const createList = (tenant: Tenant, name = 'List', projectUuid = tenant.projectUuid) =>
  createListViaApi(t.app, tenant, TITLE_AND_SUM_FIELDS, { name, projectUuid });

describe('getListSchema (getListSchema)', () => {
  it.each(TRANSPORTS)('returns the list as createListSchema did via %s', async (via) => {
    const created = await call(
      t.app,
      'createListSchema',
      { name: 'Shown', bot_id: t.owner.botId, is_menu: true, fields: TITLE_AND_SUM_FIELDS },
      { key: t.owner.apiKey },
    );
    const res = await call(
      t.app,
      'getListSchema',
      { schema_id: created.body.data.id },
      { key: t.owner.apiKey, via },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created.body);
    expect(res.body.data).toMatchObject({ is_menu: true, bot_id: t.owner.botId });
    expect(res.body.data.fields.sum.currency).toBe('GBP');
  });

  it.each(TRANSPORTS)(
    'answers 404 with errors.schema_id for an unknown list via %s',
    async (via) => {
      const res = await call(
        t.app,
        'getListSchema',
        { schema_id: 'no-such-list' },
        { key: t.owner.apiKey, via },
      );
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        message: expect.any(String),
        error: expect.any(String),
        errors: { schema_id: [res.body.message] },
      });
    },
  );

  it('answers 404 for a deleted list', async () => {
    const list = await createList(t.owner);
    expect(
      (await call(t.app, 'deleteListSchema', { schema_id: list.id }, { key: t.owner.apiKey }))
        .status,
    ).toBe(204);
    const res = await call(t.app, 'getListSchema', { schema_id: list.id }, { key: t.owner.apiKey });
    expect(res.status).toBe(404);
    expect(res.body.errors.schema_id).toHaveLength(1);
  });

  it('answers 404, not 500, for an id Postgres could not even store', async () => {
    const res = await call(
      t.app,
      'getListSchema',
      { schema_id: 'a\u0000b' },
      { key: t.owner.apiKey },
    );
    expect(res.status).toBe(404);
  });

  it('answers 403 for another account’s list', async () => {
    const list = await createList(t.other);
    const res = await call(t.app, 'getListSchema', { schema_id: list.id }, { key: t.owner.apiKey });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: expect.any(String), error: expect.any(String) });
  });

  it('answers 403 for a list in a project the caller is only a team member of (the API conventions)', async () => {
    const shared = await makeInvitedProject(t.db, t.other, t.owner);
    const list = await createList(t.other, 'Shared', shared.projectUuid);
    const res = await call(t.app, 'getListSchema', { schema_id: list.id }, { key: t.owner.apiKey });
    expect(res.status).toBe(403);
  });

  it('answers 422 when schema_id is missing', async () => {
    const res = await call(t.app, 'getListSchema', {}, { key: t.owner.apiKey });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['schema_id']);
  });
});
