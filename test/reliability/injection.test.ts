import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/infra/db/client.js';
import { call, TRANSPORTS } from '../helpers/call.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

/**
 * SQL and JSON-path payloads in filters, order_by, slugs, ids and values
 * answer only a 4xx or a result confined to the caller's own rows; values are stored
 * verbatim; a canary table and the other account's rows are untouched.
 */
const PAYLOADS = [
  "' OR '1'='1",
  "x' OR 1=1 --",
  "'; DROP TABLE canary; --",
  "title'); DELETE FROM list_items; --",
  "\"; UPDATE accounts SET plan = 'free'; --",
  '1; SELECT pg_sleep(3)',
  '1) UNION SELECT id, api_key_hash FROM accounts --',
  '$$; drop table canary; $$',
  "E'\\x27 or 1=1",
  'title->>0',
  "data->>'secret'",
  'title::text',
  '"title"',
  'title" , (select 1) --',
  '$.title',
  '$[*] ? (@ == "x")',
  'strict $.** ? (@ like_regex ".*")',
  'lax $.a.b',
  '@.title',
  "jsonb_path_query(data, '$.*')",
  "x\\'; select 1; --",
  "%' OR '1'='1",
  '\\',
  "pg_read_file('/etc/passwd')",
  "current_setting('server_version')",
];

let listId: string;
let ownIds: string[];
let otherList: string;

const FIELDS = [
  { name: 'Title', slug: 'title', type: 'string', is_required: false },
  { name: 'N', slug: 'n', type: 'number', is_required: false },
  { name: 'Day', slug: 'day', type: 'date', is_required: false },
  { name: 'Who', slug: 'who', type: 'contact', is_required: false },
  { name: 'Secret', slug: 'secret', type: 'string', is_required: false, is_encryptable: true },
];

async function snapshot() {
  const [row] = await queryRows<Record<string, unknown>>(
    t.db,
    sql`SELECT (SELECT string_agg(v, ',' ORDER BY v) FROM canary) AS canary,
               (SELECT count(*) FROM list_items) AS items,
               (SELECT count(*) FROM list_schemas) AS lists,
               (SELECT string_agg(plan || api_key_hash, ',' ORDER BY id) FROM accounts) AS accounts,
               (SELECT count(*) FROM contacts) AS contacts`,
  );
  return row;
}

const t = testAppForFile({
  env: { RATE_LIMIT_PER_MINUTE: '1000000' },
  tenants: ['owner', 'other'],
});
beforeAll(async () => {
  await t.db.execute(sql`CREATE TABLE canary (v text)`);
  await t.db.execute(sql`INSERT INTO canary VALUES ('alive'), ('still alive')`);
  const key = { key: t.owner.apiKey };
  const list = await call(
    t.app,
    'createListSchema',
    { name: 'L', project_uuid: t.owner.projectUuid, fields: FIELDS },
    key,
  );
  listId = list.body.data.id;
  ownIds = [];
  for (const title of ['alpha', 'beta', 'gamma']) {
    const res = await call(
      t.app,
      'addListItem',
      { schema_id: listId, data: { title, n: 1, secret: 's' } },
      key,
    );
    ownIds.push(res.body.data.id);
  }
  const foreign = await call(
    t.app,
    'createListSchema',
    { name: 'Other', project_uuid: t.other.projectUuid, fields: FIELDS },
    { key: t.other.apiKey },
  );
  otherList = foreign.body.data.id;
  await call(
    t.app,
    'addListItem',
    { schema_id: otherList, data: { title: 'other secret row' } },
    { key: t.other.apiKey },
  );
});

/** A 4xx, or a 200 whose records are some of the caller's own (never another list's). */
function confined(res: Awaited<ReturnType<typeof call>>) {
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
  if (res.status === 200) {
    for (const r of res.body.data as { id: string }[]) expect(ownIds).toContain(r.id);
  } else {
    expect(res.status).toBeGreaterThanOrEqual(400);
  }
}

describe('payloads in getListItems filters and order_by (getListItems)', () => {
  it.each(TRANSPORTS)(
    'answers each payload with a 4xx or the caller’s rows only, via %s',
    async (via) => {
      const before = await snapshot();
      let emptyOrRefused = 0;
      for (const p of PAYLOADS) {
        const attempts: Record<string, unknown>[] = [
          { filters: { title: p } },
          { filters: { title: `=,${p}` } },
          { filters: { title: `like,${p}` } },
          { filters: { title: `not like,${p}` } },
          { filters: { n: `>,${p}` } },
          { filters: { day: `<=,${p}` } },
          { filters: { who: p } },
          { filters: { secret: p } },
          { filters: { [p]: 'alpha' } },
          { filters: p },
          { order_by: p },
          { order_by: `title,${p}` },
          { order_by: `${p},asc` },
          { contact_id: p },
          { bot_id: p },
          { limit: p },
          { page: p },
        ];
        for (const params of attempts) {
          const res = await call(
            t.app,
            'getListItems',
            { schema_id: listId, ...params },
            { key: t.owner.apiKey, via },
          );
          confined(res);
          if (res.status >= 400 || res.body.data.length === 0) emptyOrRefused++;
          // a condition whose value is the payload matches none of alpha/beta/gamma
          const filters = params.filters as Record<string, string> | undefined;
          if (res.status === 200 && filters?.title === p) expect(res.body.data).toEqual([]);
        }
      }
      expect(emptyOrRefused).toBeGreaterThan(PAYLOADS.length * 10);
      expect(await snapshot()).toEqual(before);
    },
  );
});

describe('payloads as ids and slugs (getListSchema–4.10)', () => {
  it('answers 404 or 422 to a payload in schema_id, item_id, slug and bot_id, and changes nothing', async () => {
    const before = await snapshot();
    const key = { key: t.owner.apiKey };
    for (const p of PAYLOADS) {
      const answers = [
        await call(t.app, 'getListSchema', { schema_id: p }, key),
        await call(t.app, 'deleteListSchema', { schema_id: p }, key),
        await call(t.app, 'getListItems', { schema_id: p }, key),
        await call(t.app, 'addListItem', { schema_id: p, data: { title: 'x' } }, key),
        await call(t.app, 'updateListItem', { item_id: p, data: { title: 'x' } }, key),
        await call(t.app, 'deleteListItem', { item_id: p }, key),
        await call(t.app, 'deleteListSchemaField', { schema_id: listId, slug: p }, key),
        await call(
          t.app,
          'addListSchemaField',
          { schema_id: listId, field: { name: 'F', slug: p, type: 'string' } },
          key,
        ),
        await call(
          t.app,
          'createListSchema',
          { name: 'X', project_uuid: p, fields: [{ name: 'F', slug: p, type: 'string' }] },
          key,
        ),
        await call(t.app, 'getContacts', { bot_id: p }, key),
        await call(t.app, 'getNumberOfContacts', { bot_id: p, date_from: p }, key),
        await call(
          t.app,
          'createOrUpdateContact',
          { bot_id: p, messenger: 'telegram', telegram_id: p, name: 'n' },
          key,
        ),
      ];
      for (const res of answers)
        expect([404, 422], `${p}: ${JSON.stringify(res.body)}`).toContain(res.status);
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe('payloads as values (addListItem, updateListItem, createOrUpdateContact)', () => {
  it('stores every payload verbatim and returns it unchanged, encrypted or not', async () => {
    const key = { key: t.owner.apiKey };
    for (const p of PAYLOADS) {
      const added = await call(
        t.app,
        'addListItem',
        { schema_id: listId, data: { title: p, secret: p } },
        key,
      );
      expect(added.status).toBe(201);
      expect(added.body.data).toMatchObject({ title: p, secret: p });
      const found = await call(
        t.app,
        'getListItems',
        { schema_id: listId, filters: { title: `=,${p}` } },
        key,
      );
      expect(found.body.data.map((r: { id: string }) => r.id)).toEqual([added.body.data.id]);
      const updated = await call(
        t.app,
        'updateListItem',
        { item_id: added.body.data.id, data: { title: `${p}!` } },
        key,
      );
      expect(updated.body.data.title).toBe(`${p}!`);
      await call(t.app, 'deleteListItem', { item_id: added.body.data.id }, key);

      const contact = await call(
        t.app,
        'createOrUpdateContact',
        {
          bot_id: t.owner.botId,
          messenger: 'viber',
          viber_id: p,
          name: p,
          address: p,
          tags: [p],
        },
        key,
      );
      expect(contact.status, JSON.stringify(contact.body)).toBe(201);
      expect(contact.body.data).toMatchObject({ viber_id: p, name: p, address: p, tags: [p] });
    }
    const [canary] = await queryRows<{ v: string }>(
      t.db,
      sql`SELECT string_agg(v, ',' ORDER BY v) AS v FROM canary`,
    );
    expect(canary!.v).toBe('alive,still alive');
    const theirs = await call(
      t.app,
      'getListItems',
      { schema_id: otherList },
      { key: t.other.apiKey },
    );
    expect(theirs.body.data.map((r: { title: string }) => r.title)).toEqual(['other secret row']);
  });
});
