import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_STRING_CHARS } from '../../src/lists/field-types/string.js';
import { call, TRANSPORTS } from '../helpers/call.js';
import { testAppForFile } from '../helpers/testAppForFile.js';
import { listKeyInsert } from '../../src/lists/items/listKeyInsert.js';

/**
 * Resource limits. The body, qs and like limits have their own tests
 * (test/integration/errors.test.ts, test/methods/getListItems.test.ts) and the failed-key brake too
 * (authFailures.test.ts); here: the longest stored string, and full pages of wide records.
 */
const t = testAppForFile({
  env: { RATE_LIMIT_PER_MINUTE: '1000000', LOG_LEVEL: 'warn' },
  tenants: ['tenant'],
});

async function as(method: string, params: Record<string, unknown>, via = TRANSPORTS[1]!) {
  return call(t.app, method, params, { key: t.tenant.apiKey, via });
}

describe(`longest stored string: ${MAX_STRING_CHARS} characters (docs/reliability.md)`, () => {
  let listId: string;
  beforeAll(async () => {
    const res = await as('createListSchema', {
      name: 'Strings',
      project_uuid: t.tenant.projectUuid,
      fields: [
        { name: 'Plain', slug: 'plain', type: 'string', is_required: false },
        {
          name: 'Sealed',
          slug: 'sealed',
          type: 'string',
          is_required: false,
          is_encryptable: true,
        },
        { name: 'Doc', slug: 'doc', type: 'file', is_required: false },
      ],
    });
    listId = res.body.data.id;
  });

  it.each(TRANSPORTS)(
    'stores exactly 500 characters, astral ones counted once, via %s',
    async (via) => {
      const plain = '😀'.repeat(MAX_STRING_CHARS);
      const sealed = 'é'.repeat(MAX_STRING_CHARS);
      const res = await as('addListItem', { schema_id: listId, data: { plain, sealed } }, via);
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ plain, sealed });
    },
  );

  it.each(TRANSPORTS)(
    'answers 422 under data.<slug> for 501 characters, on add and update, via %s',
    async (via) => {
      const long = 'x'.repeat(MAX_STRING_CHARS + 1);
      const add = await as(
        'addListItem',
        { schema_id: listId, data: { plain: long, sealed: long } },
        via,
      );
      expect(add.status).toBe(422);
      expect(Object.keys(add.body.errors).sort()).toEqual(['data.plain', 'data.sealed']);
      const item = (await as('addListItem', { schema_id: listId, data: { plain: 'p' } })).body.data
        .id;
      const update = await as('updateListItem', { item_id: item, data: { sealed: long } }, via);
      expect(update.status).toBe(422);
      expect(Object.keys(update.body.errors)).toEqual(['data.sealed']);
    },
  );

  it('takes file URLs up to 2048 characters and refuses longer ones with 422', async () => {
    const url = (n: number) => `https://example.com/${'a'.repeat(n - 20)}`;
    expect(url(2048)).toHaveLength(2048);
    expect((await as('addListItem', { schema_id: listId, data: { doc: url(2048) } })).status).toBe(
      201,
    );
    const res = await as('addListItem', { schema_id: listId, data: { doc: url(2049) } });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['data.doc']);
  });
});

describe('limit=1000 pages of 30-field records (getListItems, the limits)', () => {
  const RECORDS = 2000;
  let listId: string;
  let gc: () => void;

  beforeAll(async () => {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
    const fields = Array.from({ length: 30 }, (_, i) => ({
      name: `Field ${i}`,
      slug: `f${i}`,
      type: 'string',
      is_required: false,
      // a third of them encrypted: each page decrypts 10,000 values
      is_encryptable: i % 3 === 0,
    }));
    const list = await as('createListSchema', {
      name: 'Wide',
      project_uuid: t.tenant.projectUuid,
      fields,
    });
    expect(list.status).toBe(201);
    listId = list.body.data.id;
    const data = Object.fromEntries(fields.map((f, i) => [f.slug, `${i}`.padEnd(400, 'v')]));
    const first = await as('addListItem', { schema_id: listId, data });
    expect(first.status).toBe(201);
    // The other records are copies of the first, made in SQL (the API path is not under test).
    const key = await listKeyInsert(t.db, sql`schema_id`);
    await t.db.execute(sql`
      INSERT INTO list_items (id, schema_id, owner_id, data, t1, t2, t3, n1, n2, n3, d1, d2,
                              contact_id, bot_id, created_at, updated_at${key.column})
      SELECT id || '-' || g, schema_id, owner_id, data, t1, t2, t3, n1, n2, n3, d1, d2,
             contact_id, bot_id, created_at + g * interval '1 ms', updated_at${key.value}
      FROM list_items, generate_series(1, ${RECORDS - 1}) AS g
      WHERE id = ${first.body.data.id}`);
    await t.db.execute(sql`UPDATE list_schemas SET item_count = ${RECORDS} WHERE id = ${listId}`);
  }, 120_000);

  function heapAfterGc(): number {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  }

  it('serves every page of 1000 wide records with memory that does not grow page by page', async () => {
    const mb = (n: number) => Math.round((n / 2 ** 20) * 10) / 10;
    const baseline = heapAfterGc();
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 2);
    const retained: number[] = [];
    let bytes = 0;
    try {
      for (let round = 0; round < 3; round++) {
        for (let page = 1; page <= RECORDS / 1000; page++) {
          const res = await as('getListItems', {
            schema_id: listId,
            limit: 1000,
            page,
            order_by: 'created_at,asc',
          });
          expect(res.status).toBe(200);
          expect(res.body.data).toHaveLength(1000);
          expect(Object.keys(res.body.data[999])).toHaveLength(33);
          bytes = res.raw.body.length;
        }
        retained.push(heapAfterGc() - baseline);
      }
    } finally {
      clearInterval(sampler);
    }
    console.log(
      `limit=1000 page: ${mb(bytes)} MB of JSON; heap peak +${mb(peak - baseline)} MB, retained after each round ${retained.map(mb).join(' / ')} MB`,
    );
    // no growth from round to round: nothing is kept per request. The last page answered may
    // still be held when the heap is read (its records are a string each until sent: six
    // rounds read 53.4 / 53.5 / 65.4 / 65.5 / 53.7 / 53.8 MB); a page kept per request would
    // add 20 pages a round.
    expect(retained[2]! - retained[0]!).toBeLessThan(8 * 2 ** 20 + bytes);
    // one page in flight costs a bounded multiple of its answer, not of the list
    expect(peak - baseline).toBeLessThan(bytes * 25);
  }, 120_000);
});
