import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/call.js';
import { seedContact } from '../helpers/contacts.js';
import { createBot, makeTenant, type Tenant } from '../helpers/factories.js';
import { makeList } from '../helpers/lists.js';
import { onEveryStatement } from '../helpers/sentStatements.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { fieldsArb, queryArb, recordsArb, type GenField, type Ids } from './arbitraries.js';
import { evaluate, type RefQuery, type RefRecord } from './reference.js';

/**
 * Every getListItems answer (records, order, meta.total, 422 keys) against
 * the in-memory reference, on generated lists, records and queries. LISTS × QUERIES_PER_LIST
 * ≥ 2,000 queries per run. Replay a failure with FC_SEED=<seed printed in the error>.
 */
const LISTS = Number(process.env.FC_LISTS ?? 40);
const QUERIES_PER_LIST = 50;
const seed = Number(process.env.FC_SEED ?? Math.floor(Math.random() * 2 ** 31));

let t: TestApp;
let owner: Tenant;
let ids: Ids;
const tick = Date.parse('2024-01-01T00:00:00Z');
let queriesRun = 0;
const tally = { answered: 0, withRecords: 0, refused: 0, countedWithPage: 0 };
// first-time reads whose page came in the count's statement (src/lists/items/countedPage.ts)
onEveryStatement(({ text }) => {
  if (text.startsWith('with m as materialized')) tally.countedWithPage++;
});

beforeAll(async () => {
  // two records in a row share each created_at, so the id tie-breaker is exercised too
  let calls = 0;
  t = await startTestApp({
    clock: () => new Date(tick + Math.floor(calls++ / 2)),
    env: { RATE_LIMIT_PER_MINUTE: '100000000' },
  });
  owner = await makeTenant(t.db);
  const bot2 = await createBot(t.db, owner.projectUuid, 'Second');
  ids = {
    contacts: [
      await seedContact(t.db, owner.botId),
      await seedContact(t.db, owner.botId),
      await seedContact(t.db, bot2.id),
    ],
    bots: [owner.botId, bot2.id],
  };
});
afterAll(() => t.close());

/** What the server sees of a query sent in the query string: text, as qs writes it. */
function asText(value: unknown): unknown {
  if (value === null || value === undefined) return value === null ? '' : undefined;
  if (typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asText(v)]));
  return String(value);
}

async function check(
  fields: GenField[],
  records: Record<string, unknown>[],
  queries: (RefQuery & { via: 'json' | 'query' })[],
) {
  const list = await makeList(
    t.db,
    owner,
    fields.map((f) => ({ slug: f.slug, type: f.type, is_encryptable: f.encrypted })),
  );
  const stored: RefRecord[] = [];
  for (const data of records) {
    const res = await call(
      t.app,
      'addListItem',
      { schema_id: list.id, data },
      { key: owner.apiKey },
    );
    if (res.status !== 201)
      throw new Error(
        `addListItem ${res.status}: ${JSON.stringify(res.body)} for ${JSON.stringify(data)}`,
      );
    stored.push(res.body.data);
  }
  for (const { via, ...query } of queries) {
    const params = { schema_id: list.id, ...query };
    const seen = via === 'query' ? { ...query, filters: asText(query.filters) } : query;
    const expected = evaluate(fields, stored, seen as RefQuery);
    const res = await call(t.app, 'getListItems', params, { key: owner.apiKey, via });
    queriesRun++;
    const actual =
      res.status === 200
        ? {
            status: 200,
            ids: res.body.data.map((r: { id: string }) => r.id),
            total: res.body.meta.total,
          }
        : { status: res.status, keys: Object.keys(res.body.errors ?? {}).sort() };
    if (expected.status === 422) tally.refused++;
    else if (expected.ids.length > 0) tally.withRecords++;
    if (expected.status === 200) tally.answered++;
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      throw new Error(
        `getListItems disagrees with the reference\nquery (${via}): ${JSON.stringify(query)}\nfields: ${JSON.stringify(list.fields)}\nexpected: ${JSON.stringify(expected)}\nactual: ${JSON.stringify(actual)}\nrecords: ${JSON.stringify(stored)}`,
      );
    }
  }
}

describe('getListItems against an in-memory reference (getListItems)', () => {
  it(`agrees on ${LISTS * QUERIES_PER_LIST} generated queries (seed ${seed})`, async () => {
    const scenario = fieldsArb.chain((fields) =>
      fc.tuple(
        fc.constant(fields),
        recordsArb(fields, ids),
        fc.array(queryArb(fields, ids), {
          minLength: QUERIES_PER_LIST,
          maxLength: QUERIES_PER_LIST,
        }),
      ),
    );
    try {
      await fc.assert(
        fc.asyncProperty(scenario, ([fields, records, queries]) => check(fields, records, queries)),
        { seed, numRuns: LISTS, endOnFailure: true },
      );
    } catch (err) {
      // fast-check puts the failing check's own error in `cause`
      const cause = (err as { cause?: unknown }).cause;
      throw new Error(`property failed; replay with FC_SEED=${seed}\n${String(cause ?? err)}`, {
        cause: err,
      });
    }
    expect(queriesRun).toBeGreaterThanOrEqual(LISTS * QUERIES_PER_LIST);
    // the generators must keep most queries answerable and many non-empty, or the check is hollow
    console.log(`property: ${queriesRun} queries, ${JSON.stringify(tally)}`);
    expect(tally.answered).toBeGreaterThan(queriesRun * 0.4);
    expect(tally.withRecords).toBeGreaterThan(queriesRun * 0.2);
    expect(tally.refused).toBeGreaterThan(0);
    expect(tally.countedWithPage).toBeGreaterThan(5);
  }, 600_000);
});
