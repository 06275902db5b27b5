import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillOwners } from '../../src/infra/db/backfillOwners.js';
import { queryRows } from '../../src/infra/db/client.js';
import { call } from '../helpers/call.js';
import { seedContact } from '../helpers/contacts.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/testApp.js';
import { createListViaApi } from '../helpers/viaApi.js';

/**
 * owner_id on list_items, contact_variables and list_field_erasures (migration 0011, the
 * tenant key of docs/scaling.md): written with every new row, filled in the background for
 * rows from before the column.
 */
let t: TestApp;
let alice: Tenant;
let bob: Tenant;
const lists: Record<number, string> = {};

beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
  alice = await makeTenant(t.db);
  bob = await makeTenant(t.db);
  for (const owner of [alice, bob]) {
    lists[owner.accountId] = (
      await createListViaApi(t.app, owner, [
        { slug: 'n', name: 'N', type: 'number', is_required: false },
        { slug: 'gone', name: 'Gone', type: 'string', is_required: false },
      ])
    ).id;
  }
});
afterAll(() => t.close());

const owners = (table: string) =>
  queryRows<{ owner_id: number | null; n: number }>(
    t.db,
    sql`select owner_id::int, count(*)::int as n from ${sql.identifier(table)}
        group by owner_id order by owner_id nulls first`,
  );

describe('owner_id, the tenant key', () => {
  it('is written with every new record, single and batched', async () => {
    const key = { key: alice.apiKey };
    const list = lists[alice.accountId]!;
    expect(
      (await call(t.app, 'addListItem', { schema_id: list, data: { n: 1 } }, key)).status,
    ).toBe(201);
    const batch = { schema_id: list, items: [{ n: 2 }, { n: 3 }] };
    expect((await call(t.app, 'addListItems', batch, key)).status).toBe(201);
    expect(await owners('list_items')).toEqual([{ owner_id: alice.accountId, n: 3 }]);
  });

  it('fills the rows from before the column, in batches, and then leaves the tables alone', async () => {
    // rows as an older version wrote them: no owner
    for (const owner of [alice, bob]) {
      const list = lists[owner.accountId]!;
      const items = Array.from({ length: 25 }, (_, i) => ({ n: i }));
      const res = await call(
        t.app,
        'addListItems',
        { schema_id: list, items },
        { key: owner.apiKey },
      );
      expect(res.status).toBe(201);
      await seedContact(t.db, owner.botId, {
        variables: [
          { name: 'plan', value: 'pro' },
          { name: 'city', value: 'Oslo' },
        ],
      });
      await t.db.execute(
        sql`insert into list_field_erasures (schema_id, slug, slot) values (${list}, 'gone', null)`,
      );
    }
    await t.db.execute(sql`update list_items set owner_id = null`);
    expect((await owners('list_items'))[0]).toEqual({ owner_id: null, n: 53 });

    // batches of 7: the walk crosses batch edges in every table
    const filled = await backfillOwners(t.db, { batchSize: 7 });
    expect(filled).toBe(53 + 4 + 2);
    expect(await owners('list_items')).toEqual([
      { owner_id: alice.accountId, n: 28 },
      { owner_id: bob.accountId, n: 25 },
    ]);
    expect(await owners('contact_variables')).toEqual([
      { owner_id: alice.accountId, n: 2 },
      { owner_id: bob.accountId, n: 2 },
    ]);
    expect(await owners('list_field_erasures')).toEqual([
      { owner_id: alice.accountId, n: 1 },
      { owner_id: bob.accountId, n: 1 },
    ]);
    // each record's owner is its list's
    const wrong = await queryRows<{ n: number }>(
      t.db,
      sql`select count(*)::int as n from list_items i join list_schemas s on s.id = i.schema_id
          where i.owner_id <> s.owner_id`,
    );
    expect(wrong[0]!.n).toBe(0);

    // done once: a row left without an owner now is not looked for again
    const marked = await queryRows<{ table_name: string }>(
      t.db,
      sql`select table_name from owner_backfills order by table_name`,
    );
    expect(marked.map((r) => r.table_name)).toEqual([
      'contact_variables',
      'list_field_erasures',
      'list_items',
    ]);
    await t.db.execute(
      sql`update list_items set owner_id = null where owner_id = ${bob.accountId}`,
    );
    expect(await backfillOwners(t.db)).toBe(0);
  });

  it('stops between batches when asked, and the next pass finishes', async () => {
    await t.db.execute(sql`delete from owner_backfills`);
    const controller = new AbortController();
    controller.abort();
    expect(await backfillOwners(t.db, { signal: controller.signal, batchSize: 5 })).toBe(0);
    expect(await backfillOwners(t.db, { batchSize: 5 })).toBe(25);
    expect((await owners('list_items')).every((r) => r.owner_id !== null)).toBe(true);
  });
});
