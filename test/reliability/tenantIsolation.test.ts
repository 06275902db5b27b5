import { beforeAll, describe, expect, it } from 'vitest';
import { call, TRANSPORTS, type Transport } from '../helpers/call.js';
import { makeInvitedProject, makeTenant, type Tenant } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

/**
 * The tenant isolation matrix. The caller A owns a project; B is another
 * account; A is only a team member of one of B's projects ("invited", which the API conventions excludes
 * just like a foreign one). Every method × every ID parameter × {own, foreign, invited,
 * missing, deleted} must answer exactly the documented status (docs/api.md), and no answer to A may carry a
 * byte of B's data (canary strings).
 */
let invited: { projectUuid: string; botId: number };
let aContact: number;
let bContact: number;
let invitedContact: number;
let bList: string;
let bRecord: string;
let invitedList: string;
let invitedRecord: string;

const CANARY = 'CANARY-B';
const CANARY_PHONE = '15550009999';
const CANARY_EMAIL = 'canary-b@example.test';
const MISSING_ID = '01900000-0000-7000-8000-000000000000';
const MISSING_INT = 987_654_321;

const FIELDS = [
  { name: 'Title', slug: 'title', type: 'string', is_required: false },
  { name: 'Who', slug: 'who', type: 'contact', is_required: false },
  { name: 'Via', slug: 'via', type: 'bot', is_required: false },
  { name: 'Secret', slug: 'secret', type: 'string', is_required: false, is_encryptable: true },
];

/** Every answer to A goes through here: B's canaries must never appear. */
async function as(
  tenant: Tenant,
  method: string,
  params: Record<string, unknown>,
  via: Transport = 'json',
) {
  const res = await call(t.app, method, params, { key: tenant.apiKey, via });
  if (tenant === t.a) {
    const text = res.raw.body;
    for (const canary of [CANARY, CANARY_PHONE, CANARY_EMAIL, bList, bRecord, invitedList]) {
      expect(text, `${method} answered A with B's ${canary}`).not.toContain(canary);
    }
  }
  return res;
}

async function newList(owner: Tenant, where: Record<string, unknown>, name = 'List') {
  const res = await as(owner, 'createListSchema', { name, fields: FIELDS, ...where });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

async function newRecord(owner: Tenant, listId: string, title = 'own') {
  const res = await as(owner, 'addListItem', {
    schema_id: listId,
    data: { title, secret: `${title} secret` },
  });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
}

async function newContact(owner: Tenant, botId: number, telegramId: number, canary = false) {
  const res = await as(owner, 'createOrUpdateContact', {
    bot_id: botId,
    messenger: 'telegram',
    telegram_id: telegramId,
    name: canary ? `${CANARY} contact` : 'A contact',
    ...(canary ? { phone: `+${CANARY_PHONE}`, email: CANARY_EMAIL, tags: [CANARY] } : {}),
  });
  expect(res.status).toBe(201);
  return res.body.data.id as number;
}

const t = testAppForFile({ env: { RATE_LIMIT_PER_MINUTE: '1000000' }, tenants: ['a', 'b'] });
beforeAll(async () => {
  invited = await makeInvitedProject(t.db, t.b, t.a);
  aContact = await newContact(t.a, t.a.botId, 11);
  bContact = await newContact(t.b, t.b.botId, 12, true);
  invitedContact = await newContact(t.b, invited.botId, 13, true);
  bList = await newList(t.b, { project_uuid: t.b.projectUuid }, `${CANARY} list`);
  bRecord = await newRecord(t.b, bList, `${CANARY} value`);
  invitedList = await newList(t.b, { bot_id: invited.botId }, `${CANARY} shared list`);
  invitedRecord = await newRecord(t.b, invitedList, `${CANARY} shared value`);
});

type Case = 'own' | 'foreign' | 'invited' | 'missing' | 'deleted';

/** A's own list, fresh for each cell (the cell may delete it). */
const ownList = () => newList(t.a, { project_uuid: t.a.projectUuid });
async function deletedList() {
  const id = await ownList();
  expect((await as(t.a, 'deleteListSchema', { schema_id: id })).status).toBe(204);
  return id;
}

/** schema_id of each case, made fresh per call. */
const schemaIds: Record<Case, () => Promise<string>> = {
  own: ownList,
  foreign: async () => bList,
  invited: async () => invitedList,
  missing: async () => MISSING_ID,
  deleted: deletedList,
};

/** item_id of each case; "deleted" alternates a deleted record and one of a deleted list. */
let deletedTurn = 0;
const itemIds: Record<Case, () => Promise<string>> = {
  own: async () => newRecord(t.a, await ownList()),
  foreign: async () => bRecord,
  invited: async () => invitedRecord,
  missing: async () => MISSING_ID,
  deleted: async () => {
    const list = await ownList();
    const id = await newRecord(t.a, list);
    if (deletedTurn++ % 2 === 0) await as(t.a, 'deleteListItem', { item_id: id });
    else await as(t.a, 'deleteListSchema', { schema_id: list });
    return id;
  },
};

interface Row {
  method: string;
  param: 'schema_id' | 'item_id';
  extra?: () => Record<string, unknown>;
  expected: Record<Case, number>;
}

const LIST_ACCESS = { foreign: 403, invited: 403, missing: 404, deleted: 404 } as const;

/** getListSchema–4.10: list and record methods by schema_id / item_id. */
const ROWS: Row[] = [
  { method: 'getListSchema', param: 'schema_id', expected: { own: 200, ...LIST_ACCESS } },
  { method: 'deleteListSchema', param: 'schema_id', expected: { own: 204, ...LIST_ACCESS } },
  {
    method: 'addListSchemaField',
    param: 'schema_id',
    extra: () => ({ field: { name: 'N', slug: 'added', type: 'string' } }),
    expected: { own: 204, ...LIST_ACCESS },
  },
  {
    method: 'deleteListSchemaField',
    param: 'schema_id',
    extra: () => ({ slug: 'title' }),
    expected: { own: 204, ...LIST_ACCESS },
  },
  { method: 'getListItems', param: 'schema_id', expected: { own: 200, ...LIST_ACCESS } },
  {
    method: 'addListItem',
    param: 'schema_id',
    extra: () => ({ data: { title: 'x' } }),
    expected: { own: 201, ...LIST_ACCESS },
  },
  {
    method: 'updateListItem',
    param: 'item_id',
    extra: () => ({ data: { title: 'changed' } }),
    expected: { own: 200, ...LIST_ACCESS },
  },
  { method: 'deleteListItem', param: 'item_id', expected: { own: 204, ...LIST_ACCESS } },
  {
    method: 'addListItems',
    param: 'schema_id',
    extra: () => ({ items: [{ title: 'x' }, { title: 'y' }] }),
    expected: { own: 201, ...LIST_ACCESS },
  },
  // the list's access is decided first; on an own list the unknown record is a 422
  {
    method: 'updateListItems',
    param: 'schema_id',
    extra: () => ({ items: [{ item_id: MISSING_ID, data: { title: 'x' } }] }),
    expected: { own: 422, ...LIST_ACCESS },
  },
  {
    method: 'deleteListItems',
    param: 'schema_id',
    extra: () => ({ item_ids: [bRecord] }),
    expected: { own: 422, ...LIST_ACCESS },
  },
];

describe('list and record methods × schema_id / item_id (the methods access errors, getListSchema, updateListItem)', () => {
  const cells = ROWS.flatMap((row) =>
    (Object.keys(row.expected) as Case[]).flatMap((c) =>
      TRANSPORTS.map((via) => [row.method, row.param, c, row.expected[c], via, row] as const),
    ),
  );
  it.each(cells)('%s with %s %s answers %i via %s', async (method, param, c, status, via, row) => {
    const id = await (param === 'schema_id' ? schemaIds : itemIds)[c]();
    const res = await as(t.a, method, { [param]: id, ...row.extra?.() }, via);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    if (status === 404) expect(res.body.errors?.[param]).toEqual([expect.any(String)]);
  });

  it("leaves B's list and record exactly as they were after every attempt", async () => {
    const list = await as(t.b, 'getListSchema', { schema_id: bList });
    expect(list.status).toBe(200);
    expect(Object.keys(list.body.data.fields)).toEqual(['title', 'who', 'via', 'secret']);
    const items = await as(t.b, 'getListItems', { schema_id: bList });
    expect(items.body.data).toHaveLength(1);
    expect(items.body.data[0]).toMatchObject({ id: bRecord, title: `${CANARY} value` });
  });
});

describe('where a list is created: project_uuid and bot_id (createListSchema)', () => {
  const targets: Record<Exclude<Case, 'deleted'>, () => Record<string, unknown>> = {
    own: () => ({ project_uuid: t.a.projectUuid }),
    foreign: () => ({ project_uuid: t.b.projectUuid }),
    invited: () => ({ project_uuid: invited.projectUuid }),
    missing: () => ({ project_uuid: MISSING_ID }),
  };
  const bots: Record<Exclude<Case, 'deleted'>, () => Record<string, unknown>> = {
    own: () => ({ bot_id: t.a.botId }),
    foreign: () => ({ bot_id: t.b.botId }),
    invited: () => ({ bot_id: invited.botId }),
    missing: () => ({ bot_id: MISSING_INT }),
  };
  const expected = { own: 201, foreign: 403, invited: 403, missing: 422 };
  it.each(
    (['project_uuid', 'bot_id'] as const).flatMap((param) =>
      (Object.keys(expected) as (keyof typeof expected)[]).map((c) => [param, c, expected[c]]),
    ),
  )('createListSchema with %s %s answers %i', async (param, c, status) => {
    const where = (param === 'project_uuid' ? targets : bots)[c as keyof typeof targets]();
    const res = await as(t.a, 'createListSchema', { name: 'L', fields: FIELDS, ...where });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    if (status === 422) expect(Object.keys(res.body.errors)).toEqual([param]);
  });
});

describe('contact and bot values inside data (addListItem, updateListItem)', () => {
  const values: Record<string, Record<Exclude<Case, 'deleted'>, () => number>> = {
    who: {
      own: () => aContact,
      foreign: () => bContact,
      invited: () => invitedContact,
      missing: () => MISSING_INT,
    },
    via: {
      own: () => t.a.botId,
      foreign: () => t.b.botId,
      invited: () => invited.botId,
      missing: () => MISSING_INT,
    },
  };
  const cells = (['addListItem', 'updateListItem'] as const).flatMap((method) =>
    (['who', 'via'] as const).flatMap((slug) =>
      (['own', 'foreign', 'invited', 'missing'] as const).map((c) => {
        const ok = method === 'addListItem' ? 201 : 200;
        const status = { own: ok, foreign: 403, invited: 403, missing: 422 }[c];
        return [method, slug, c, status] as const;
      }),
    ),
  );
  it.each(cells)('%s with data.%s %s answers %i', async (method, slug, c, status) => {
    const list = await ownList();
    const target =
      method === 'addListItem' ? { schema_id: list } : { item_id: await newRecord(t.a, list) };
    const res = await as(t.a, method, { ...target, data: { [slug]: values[slug]![c]() } });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    if (status === 422) expect(Object.keys(res.body.errors)).toEqual([`data.${slug}`]);
    if (status < 300) expect(res.body.data[slug]).toBe(values[slug]![c]());
  });
});

describe('contact_id / bot_id filters and contact methods (getListItems, getContacts, getNumberOfContacts, createOrUpdateContact)', () => {
  let linkedList: string;
  beforeAll(async () => {
    linkedList = await ownList();
    const res = await as(t.a, 'addListItem', {
      schema_id: linkedList,
      data: { title: 'linked', who: aContact, via: t.a.botId },
    });
    expect(res.status).toBe(201);
  });

  it.each([
    ['contact_id', 'own', 1, (): number => aContact],
    ['contact_id', 'foreign', 0, (): number => bContact],
    ['contact_id', 'invited', 0, (): number => invitedContact],
    ['contact_id', 'missing', 0, (): number => MISSING_INT],
    ['bot_id', 'own', 1, (): number => t.a.botId],
    ['bot_id', 'foreign', 0, (): number => t.b.botId],
    ['bot_id', 'invited', 0, (): number => invited.botId],
    ['bot_id', 'missing', 0, (): number => MISSING_INT],
  ] as const)(
    'getListItems filtered by %s %s finds %i of A’s records',
    async (param, _c, n, value) => {
      const res = await as(t.a, 'getListItems', { schema_id: linkedList, [param]: value() });
      expect(res.status).toBe(200);
      expect(res.body.meta.total).toBe(n);
    },
  );

  it.each([
    ['own', 1, (): number => t.a.botId],
    ['foreign', 0, (): number => t.b.botId],
    ['invited', 0, (): number => invited.botId],
    ['missing', 0, (): number => MISSING_INT],
  ] as const)(
    'getContacts and getNumberOfContacts with bot_id %s see %i contacts, never an error',
    async (_c, n, botId) => {
      for (const via of TRANSPORTS) {
        const page = await as(t.a, 'getContacts', { bot_id: botId() }, via);
        expect(page.status).toBe(200);
        expect(page.body.meta.total).toBe(n);
        const offset = await as(t.a, 'getContacts', { bot_id: botId(), offset: 0 }, via);
        expect(offset.body.data).toHaveLength(n);
        const count = await as(t.a, 'getNumberOfContacts', { bot_id: botId() }, via);
        expect(count.body).toEqual({ count: n });
      }
    },
  );

  it('lists only A’s contacts and lists without a bot_id', async () => {
    const contacts = await as(t.a, 'getContacts', { limit: 1000 });
    expect(contacts.body.data.map((c: { id: number }) => c.id)).toEqual([aContact]);
    // every page: the matrix above makes many lists of A's
    const ids: string[] = [];
    for (let page = 1; ; page++) {
      const lists = await as(t.a, 'getListSchemas', { page });
      ids.push(...lists.body.data.map((l: { id: string }) => l.id));
      if (lists.body.data.length < 50) break;
    }
    expect(ids).not.toContain(bList);
    expect(ids).not.toContain(invitedList);
    expect(ids).toContain(linkedList);
  });

  it.each([
    ['own', 201, (): number => t.a.botId],
    ['foreign', 404, (): number => t.b.botId],
    ['invited', 404, (): number => invited.botId],
    ['missing', 404, (): number => MISSING_INT],
  ] as const)('createOrUpdateContact with bot_id %s answers %i', async (_c, status, botId) => {
    // the telegram id of B's canary contact: found only within B's own bot
    const res = await as(t.a, 'createOrUpdateContact', {
      bot_id: botId(),
      messenger: 'telegram',
      telegram_id: 12,
      name: 'Probe',
    });
    expect(res.status).toBe(status);
    if (status === 404) expect(Object.keys(res.body.errors)).toEqual(['bot_id']);
    if (status === 201) expect(res.body.data.id).not.toBe(bContact);
  });
});

describe('paging links come from BASE_URL, never from Host or X-Forwarded-Host (the paging envelope)', () => {
  const hostile = {
    host: 'evil.example',
    'x-forwarded-host': 'evil.example',
    'x-forwarded-proto': 'gopher',
  };

  async function linksOf(app: TestApp) {
    const tenant = await makeTenant(app.db);
    const list = await call(
      app.app,
      'createListSchema',
      {
        name: 'L',
        project_uuid: tenant.projectUuid,
        fields: FIELDS,
      },
      { key: tenant.apiKey },
    );
    const answers = await Promise.all([
      call(app.app, 'getListSchemas', {}, { key: tenant.apiKey, headers: hostile }),
      call(
        app.app,
        'getListItems',
        { schema_id: list.body.data.id },
        { key: tenant.apiKey, headers: hostile },
      ),
      call(app.app, 'getContacts', {}, { key: tenant.apiKey, headers: hostile }),
    ]);
    return answers.map((r) => {
      expect(r.status).toBe(200);
      return JSON.stringify([r.body.links, r.body.meta]);
    });
  }

  it.each([
    ['by default', {}],
    ['behind a trusted proxy (TRUST_PROXY=true)', { TRUST_PROXY: 'true' }],
  ])('builds every link from BASE_URL %s', async (_how, env) => {
    const app = await startTestApp({ env: { ...env, BASE_URL: 'https://lists.example.com/base' } });
    try {
      for (const text of await linksOf(app)) {
        expect(text).not.toContain('evil.example');
        expect(text).not.toContain('gopher');
        const urls = text.match(/https?:\/\/[^"?]+/g) ?? [];
        expect(urls.length).toBeGreaterThan(0);
        for (const url of urls)
          expect(url).toMatch(/^https:\/\/lists\.example\.com\/base\/api\/v1\//);
      }
    } finally {
      await app.close();
    }
  });
});
