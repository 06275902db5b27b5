import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres } from '../../src/infra/db/migrate.js';
import { call } from '../helpers/call.js';
import { testAppForFile } from '../helpers/testAppForFile.js';
import { addItemViaApi, createListViaApi } from '../helpers/viaApi.js';

/**
 * A database that an earlier version placed on Citus (run only with TEST_CITUS_URL,
 * vitest.config.ts) kept three row triggers on distributed tables: `changes_stamp_here`, which
 * stamped each change row with its worker's transaction id and `seq` from the worker's copy of
 * the sequence, and the two layout triggers of `list_schemas`. The next start drops them
 * (src/infra/db/citusTriggers.ts) and the service does their work itself. The feed goes on
 * without a gap or a step back: the coordinator's sequence, which now hands out `seq`, is
 * set past every `seq` the workers handed out.
 */
const t = testAppForFile({ tenants: ['me'], env: { RATE_LIMIT_PER_MINUTE: '1000000' } });

const RETIRED = ['changes_stamp_here', 'list_schemas_next_layout', 'list_schemas_keep_layout'];

/** The earlier placement's feed trigger, as it was. */
const EARLIER_FEED_TRIGGER = [
  `CREATE OR REPLACE FUNCTION changes_stamp_here() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     NEW.txid := pg_current_xact_id();
     NEW.seq := nextval('changes_seq_seq');
     RETURN NEW;
   END $$`,
  `CREATE TRIGGER changes_stamp_here BEFORE INSERT ON changes
   FOR EACH ROW EXECUTE FUNCTION changes_stamp_here()`,
];

/** Migration 0009's layout triggers (their functions are still there). */
const LAYOUT_TRIGGERS = [
  `CREATE TRIGGER list_schemas_next_layout BEFORE UPDATE OF fields ON list_schemas
   FOR EACH ROW EXECUTE FUNCTION list_schemas_next_layout()`,
  `CREATE TRIGGER list_schemas_keep_layout AFTER INSERT OR UPDATE OF fields ON list_schemas
   FOR EACH ROW EXECUTE FUNCTION list_schemas_keep_layout()`,
];

let c: pg.Client;
beforeAll(async () => {
  c = new pg.Client({ connectionString: t.database.url });
  await c.connect();
});
afterAll(() => c.end());

/** How many of the retired triggers each node holds (on a worker: on the shards too). */
async function triggersOnNodes(): Promise<number[]> {
  const names = RETIRED.map((n) => `'${n}'`).join(', ');
  const here = await c.query<{ n: number }>(
    `select count(*)::int as n from pg_trigger where tgname in (${names})`,
  );
  const workers = await c.query<{ result: string }>(
    `select result from run_command_on_workers($$
       select count(*) from pg_trigger where tgname like any (array[${RETIRED.map((n) => `'${n}%'`).join(', ')}])
     $$) order by nodeport`,
  );
  return [here.rows[0]!.n, ...workers.rows.map((r) => Number(r.result))];
}

const seqsOf = async (accountId: number) =>
  (
    await c.query<{ seq: string }>(`select seq from changes where account_id = $1 order by seq`, [
      accountId,
    ])
  ).rows.map((r) => BigInt(r.seq));

describe('a database placed by an earlier version', () => {
  it('loses its row triggers at the next start, and its feed goes on in order', async () => {
    const key = { key: t.me.apiKey };
    await c.query('SET citus.enable_unsafe_triggers = on');
    for (const statement of [...EARLIER_FEED_TRIGGER, ...LAYOUT_TRIGGERS]) await c.query(statement);
    await c.query('RESET citus.enable_unsafe_triggers');
    expect((await triggersOnNodes()).every((n) => n > 0)).toBe(true);

    const list = await createListViaApi(t.app, t.me, [
      { slug: 'title', name: 'Title', type: 'string', is_required: false },
    ]);
    await addItemViaApi(t.app, t.me, list.id, { title: 'before' });
    const before = await seqsOf(t.me.accountId);
    // the workers' copies of the sequence start at their group's range, 2^48 on
    expect(before.every((s) => s >= 2n ** 48n)).toBe(true);

    await migratePostgres(t.database.url);
    expect(await triggersOnNodes()).toEqual([0, 0, 0]);

    const added = await call(
      t.app,
      'addListSchemaField',
      { schema_id: list.id, field: { slug: 'note', name: 'Note', type: 'string' } },
      key,
    );
    expect(added.status).toBe(204);
    await addItemViaApi(t.app, t.me, list.id, { title: 'after', note: 'n' });
    const after = (await seqsOf(t.me.accountId)).slice(before.length);
    expect(after).toHaveLength(2);
    expect(after[0]! > before.at(-1)!).toBe(true);

    const feed = await call(t.app, 'getChanges', { limit: 100 }, key);
    expect(feed.status).toBe(200);
    const seen = feed.body.data as { type: string; data?: Record<string, unknown> }[];
    expect(seen.map((e) => e.type)).toEqual([
      'list_schema.created',
      'list_item.created',
      'list_schema.field_added',
      'list_item.created',
    ]);
    expect(seen.at(-1)!.data).toMatchObject({ title: 'after', note: 'n' });
    // the field's layout was kept by the service: the list's layout went up once, and is there
    const layouts = await c.query<{ layout: number }>(
      `select layout from list_layouts where owner_id = $1 and schema_id = $2 order by layout`,
      [t.me.accountId, list.id],
    );
    expect(layouts.rows.map((r) => r.layout)).toEqual([0, 1]);
  }, 60_000);
});
