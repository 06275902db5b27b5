import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/call.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { addItemViaApi, createListViaApi } from '../helpers/viaApi.js';

/**
 * The number and date slot indexes carry t1, the first string field's slot, beside every
 * other number and date slot (migration 0017). A B-tree entry may not pass 2,704 bytes, so the
 * widest record the service accepts must still be written, changed and found: a string of 500
 * four-byte characters (2,000 bytes) beside the largest numbers (a double has at most 17
 * significant digits, and numeric does not store trailing zeros: about 2,160 bytes in all).
 */
let t: TestApp;
let owner: Tenant;

beforeAll(async () => {
  t = await startTestApp();
  owner = await makeTenant(t.db);
});
afterAll(() => t.close());

/** 500 four-byte characters that do not compress (a repeated one would: B-tree compresses wide values) */
const LONGEST = Array.from({ length: 500 }, (_, i) =>
  String.fromCodePoint(0x20000 + ((i * 7919) % 40000)),
).join('');
const LARGEST = Number.MAX_VALUE;

describe('the widest record in the widest index entries', () => {
  it('is added, updated and found by a combined filter', async () => {
    const list = await createListViaApi(t.app, owner, [
      { slug: 's', name: 'S', type: 'string' },
      { slug: 'a', name: 'A', type: 'number' },
      { slug: 'b', name: 'B', type: 'number' },
      { slug: 'c', name: 'C', type: 'number' },
      { slug: 'd', name: 'D', type: 'date' },
      { slug: 'e', name: 'E', type: 'datetime' },
    ]);
    const record = {
      s: LONGEST,
      a: LARGEST,
      b: LARGEST,
      c: LARGEST,
      d: '2020-01-01',
      e: '2020-01-01',
    };
    const added = await addItemViaApi(t.app, owner, list.id, record);
    expect(added.s).toBe(LONGEST);

    const entry = await t.database.handle.pool!.query<{ bytes: number }>(
      `select pg_column_size(row(owner_id, list_key, n1, id, t1, n2, n3, d1, d2, created_at,
         updated_at)) as bytes from list_items where id = $1`,
      [added.id],
    );
    // the widest entry, as list_items_n1_idx holds it, is close to the limit and under it
    expect(entry.rows[0]!.bytes).toBeGreaterThan(2100);
    expect(entry.rows[0]!.bytes).toBeLessThan(2704);

    const updated = await call(
      t.app,
      'updateListItem',
      { schema_id: list.id, item_id: added.id, data: { e: '2021-06-01 10:00', a: -LARGEST } },
      { key: owner.apiKey },
    );
    expect(updated.status).toBe(200);

    const found = await call(
      t.app,
      'getListItems',
      { schema_id: list.id, filters: { s: LONGEST, a: '<,0', d: '<,2021-01-01' } },
      { key: owner.apiKey },
    );
    expect(found.status).toBe(200);
    expect(found.body.meta.total).toBe(1);
    expect(found.body.data[0].a).toBe(-LARGEST);
  });
});
