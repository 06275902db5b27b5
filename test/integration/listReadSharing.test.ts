import { describe, expect, it } from 'vitest';
import { call } from '../helpers/call.js';
import { MANY_CALLS, testAppForFile } from '../helpers/testAppForFile.js';
import { listItemStatements } from '../helpers/sentStatements.js';
import { addItemViaApi, createListViaApi } from '../helpers/viaApi.js';

/**
 * Requests for the same answer of the same list version share one count and one page query
 * while it runs (ListReadCache.totalOr / pageOr): after a write, the reads in flight do not
 * each count the list again. A filter's first count is not shared (firstCount): the requests
 * asking meanwhile share a count of the version they read. The statements sent to list_items are recorded to see it.
 */
const sent = listItemStatements();

const t = testAppForFile({ env: MANY_CALLS, tenants: ['owner'] });

async function readTogether(schemaId: string, n: number) {
  sent.length = 0;
  const answers = await Promise.all(
    Array.from({ length: n }, () =>
      call(
        t.app,
        'getListItems',
        { schema_id: schemaId, filters: { city: 'Oslo' }, order_by: 'price,desc', limit: 5 },
        { key: t.owner.apiKey },
      ),
    ),
  );
  for (const a of answers) expect(a.status).toBe(200);
  return {
    bodies: answers.map((a) => JSON.stringify(a.body)),
    totals: answers.map((a) => a.body.meta.total as number),
    counts: sent.filter((s) => /count\(\*\)/i.test(s)).length,
    pages: sent.filter((s) => !/count\(\*\)/i.test(s)).length,
  };
}

describe('getListItems shares queries in flight', () => {
  it('counts and selects once for ten simultaneous reads of one version, again after a write', async () => {
    const list = await createListViaApi(t.app, t.owner, [
      { name: 'City', slug: 'city', type: 'string' },
      { name: 'Price', slug: 'price', type: 'number' },
    ]);
    for (let i = 0; i < 12; i++)
      await addItemViaApi(t.app, t.owner, list.id, { city: i % 3 ? 'Oslo' : 'Bergen', price: i });

    const first = await readTogether(list.id, 10);
    expect(first.totals).toEqual(Array(10).fill(8));
    expect(new Set(first.bodies).size).toBe(1);
    // a filter never counted on a list read lately: one request counts it; the others, not
    // joining a count whose snapshot may predate their callers' writes, read the list's
    // version and share one count of it (readCache.ts, firstCount)
    expect(first.counts).toBeGreaterThanOrEqual(1);
    expect(first.counts).toBeLessThanOrEqual(2);
    expect(first.pages).toBeLessThanOrEqual(1);

    await addItemViaApi(t.app, t.owner, list.id, { city: 'Oslo', price: 100 });
    const after = await readTogether(list.id, 10);
    expect(after.totals).toEqual(Array(10).fill(9));
    expect(JSON.parse(after.bodies[0]!).data[0].price).toBe(100);
    expect([after.counts, after.pages]).toEqual([1, 1]);
  });
});
