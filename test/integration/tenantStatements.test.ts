import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { call } from '../helpers/call.js';
import { TEST_CITUS_URL } from '../helpers/env.js';
import { onEveryStatement } from '../helpers/sentStatements.js';
import { testAppForFile } from '../helpers/testAppForFile.js';

/**
 * Every statement a request sends to a tenant table names `owner_id` (docs/scaling.md): on
 * Citus that is what routes it to one shard. Statements are recorded per request (async
 * context), so nothing else the process runs is counted.
 */
const TENANT_TABLES = [
  'bots',
  'list_schemas',
  'list_items',
  'list_field_erasures',
  'list_layouts',
  'contacts',
  'contact_variables',
  'contact_stats',
];
const SHARD = new RegExp(
  `\\b(${TENANT_TABLES.join('|')}|changes|idempotency_keys)_(\\d{5,})\\b`,
  'g',
);
const TOUCHES = new RegExp(
  `\\b(?:from|join|into|update)\\s+"?(${TENANT_TABLES.join('|')})"?\\b`,
  'gi',
);

const recording = new AsyncLocalStorage<string[]>();
onEveryStatement(({ text }) => recording.getStore()?.push(text));
/**
 * On Citus (TEST_CITUS_URL), what the coordinator sent to the workers for the statements of a
 * request: every session logs its remote commands (`citus.log_remote_commands`), which reach
 * the client as notices ("issuing <command>", "on server <node>").
 */
const remote = new AsyncLocalStorage<{ command: string; server: string }[]>();
type Query = (this: pg.Client, config: unknown, ...rest: unknown[]) => unknown;
const classQuery = pg.Client.prototype.query as unknown as Query;
const logging = new WeakSet<pg.Client>();
(pg.Client.prototype as unknown as { query: Query }).query = function (config, ...rest) {
  const commands = remote.getStore();
  if (TEST_CITUS_URL && commands) {
    if (!logging.has(this)) {
      logging.add(this);
      this.on('notice', (n: { message?: string; detail?: string }) => {
        const issued = /^issuing (.*)$/s.exec(n.message ?? '');
        const server = /on server (\S+)/.exec(n.detail ?? '');
        if (issued && server) current.get(this)?.push({ command: issued[1]!, server: server[1]! });
      });
      void classQuery.call(this, 'set citus.log_remote_commands = on');
    }
    current.set(this, commands);
  }
  return classQuery.call(this, config, ...rest);
};
/** The request whose statement each client runs now (a client runs one at a time). */
const current = new WeakMap<pg.Client, { command: string; server: string }[]>();

/** The statements of one call, with the call's answer. */
async function recorded(method: string, params: Record<string, unknown>, key = t.me.apiKey) {
  const statements: string[] = [];
  const commands: { command: string; server: string }[] = [];
  const res = await recording.run(statements, () =>
    remote.run(commands, () => call(t.app, method, params, { key })),
  );
  return { res, statements, commands };
}

/**
 * The shards of tenant tables that a request's remote commands name, and the workers they
 * went to: one shard of each table and one worker is a request on one shard group.
 */
function shardsTouched(commands: { command: string; server: string }[]) {
  const shards = new Map<string, Set<string>>();
  const servers = new Set<string>();
  const tenantServers = new Set<string>();
  for (const { command, server } of commands) {
    // every worker a command went to, whether or not it names a shard: an intermediate
    // result copied to a worker, or a transaction opened there, is a worker in the request
    servers.add(server);
    if (!REFERENCE_OR_CONTROL.test(command)) tenantServers.add(server);
    for (const m of command.matchAll(SHARD)) {
      const set = shards.get(m[1]!) ?? new Set<string>();
      set.add(m[2]!);
      shards.set(m[1]!, set);
    }
  }
  return {
    manyShards: [...shards].filter(([, ids]) => ids.size > 1).map(([table]) => table),
    servers: [...servers],
    tenantServers: [...tenantServers],
  };
}

/**
 * Commands that are not about a tenant's data: a write to a reference table (on every node by
 * design), its shard locks, and the transaction's own control.
 */
const REFERENCE_OR_CONTROL =
  /^(BEGIN |PREPARE TRANSACTION|COMMIT|ROLLBACK|SELECT lock_shard_resources\(|UPDATE public\.projects_\d+ )/;

/**
 * The methods that write a reference table and so commit on every node: a list counts
 * against its project's cap in `projects.list_count` (docs/scaling.md, "Writes on one worker").
 */
const ON_EVERY_NODE = new Set(['createListSchema', 'deleteListSchema']);

/** The statements among `statements` that touch a tenant table and never name owner_id. */
function unscoped(statements: string[]): { tables: string[]; sql: string }[] {
  return statements
    .map((sql) => ({ sql, tables: [...sql.matchAll(TOUCHES)].map((m) => m[1]!.toLowerCase()) }))
    .filter((s) => s.tables.length > 0 && !namesOwner(s.sql));
}

/** Compares owner_id with something (WHERE, ON), or writes it (an INSERT's columns). */
function namesOwner(sql: string): boolean {
  return /\bowner_id"?\s*=/i.test(sql) || /\binsert\s+into\s[^(]*\([^)]*\bowner_id\b/i.test(sql);
}

const t = testAppForFile({ tenants: ['me', 'other'] });

describe('statements of requests on own data', () => {
  it('name owner_id whenever they touch a tenant table, for every method', async () => {
    const seen: string[] = [];
    const expectStatus = async (
      method: string,
      params: Record<string, unknown>,
      status: number,
    ) => {
      const { res, statements, commands } = await recorded(method, params);
      expect.soft(res.status, `${method}: ${JSON.stringify(res.body)}`).toBe(status);
      expect.soft(unscoped(statements), method).toEqual([]);
      if (TEST_CITUS_URL) {
        // on Citus: one shard of each tenant table, all on one worker
        const touched = shardsTouched(commands);
        expect.soft(touched.manyShards, `${method}: tables on several shards`).toEqual([]);
        expect.soft(touched.tenantServers.length, `${method}: workers`).toBeLessThanOrEqual(1);
        if (!ON_EVERY_NODE.has(method)) {
          expect.soft(touched.servers.length, `${method}: nodes`).toBeLessThanOrEqual(1);
        }
      }
      seen.push(...statements);
      return res.body;
    };

    const contact = await expectStatus(
      'createOrUpdateContact',
      {
        bot_id: t.me.botId,
        messenger: 'telegram',
        telegram_id: 1001,
        name: 'Ann',
        variables: { city: 'Riga', utm_source: 'ad' },
      },
      201,
    );
    const contactId = contact.data.id as number;
    await expectStatus(
      'createOrUpdateContact',
      { bot_id: t.me.botId, messenger: 'telegram', telegram_id: 1001, name: 'Ann B.' },
      200,
    );
    await expectStatus(
      'createOrUpdateContacts',
      {
        bot_id: t.me.botId,
        contacts: [
          { messenger: 'telegram', telegram_id: 1002, name: 'Bob', variables: { a: '1' } },
          { messenger: 'vk', vk_user_id: 7, name: 'Cy' },
        ],
      },
      200,
    );
    await expectStatus('getContacts', { bot_id: t.me.botId }, 200);
    await expectStatus('getContacts', {}, 200);
    await expectStatus('getContacts', { bot_id: t.me.botId, page: 2, count: 1 }, 200);
    await expectStatus('getNumberOfContacts', { bot_id: t.me.botId }, 200);
    await expectStatus('getNumberOfContacts', {}, 200);

    const list = await expectStatus(
      'createListSchema',
      {
        name: 'Orders',
        project_uuid: t.me.projectUuid,
        fields: [
          { slug: 'title', type: 'string', is_required: true },
          { slug: 'qty', type: 'number' },
          { slug: 'day', type: 'date' },
          { slug: 'price', type: 'money', currency: 'USD' },
          { slug: 'who', type: 'contact' },
          { slug: 'via', type: 'bot' },
          { slug: 'secret', type: 'string', is_encryptable: true },
        ].map((f) => ({ name: f.slug, ...f })),
      },
      201,
    );
    const schemaId = list.data.id as string;
    await expectStatus('getListSchemas', {}, 200);
    await expectStatus('getListSchema', { schema_id: schemaId }, 200);
    await expectStatus(
      'addListSchemaField',
      {
        schema_id: schemaId,
        field: { slug: 'note', name: 'Note', type: 'string', is_required: false },
      },
      204,
    );

    const data = (i: number) => ({
      title: `t${i}`,
      qty: i,
      day: '2026-01-02',
      price: 1.5,
      who: contactId,
      via: t.me.botId,
      secret: 's',
    });
    const item = await expectStatus('addListItem', { schema_id: schemaId, data: data(0) }, 201);
    const itemId = item.data.id as string;
    const batch = await expectStatus(
      'addListItems',
      { schema_id: schemaId, items: [data(1), data(2), data(3)] },
      201,
    );
    const batchIds = (batch.data as { id: string }[]).map((r) => r.id);
    await expectStatus(
      'addListItems',
      { schema_id: schemaId, items: [data(4), { qty: 1 }], atomic: false },
      200,
    );
    await expectStatus('getListItems', { schema_id: schemaId }, 200);
    await expectStatus(
      'getListItems',
      { schema_id: schemaId, filters: { title: 't1' }, order_by: 'qty,desc' },
      200,
    );
    await expectStatus(
      'getListItems',
      {
        schema_id: schemaId,
        filters: { qty: '>=,1' },
        order_by: 'day,asc',
        page: 2,
        limit: 1,
      },
      200,
    );
    await expectStatus('getListItems', { schema_id: schemaId, filters: { who: contactId } }, 200);
    await expectStatus('updateListItem', { item_id: itemId, data: { qty: 9 } }, 200);
    await expectStatus(
      'updateListItems',
      { schema_id: schemaId, items: [{ item_id: batchIds[0], data: { qty: 8 } }] },
      200,
    );
    await expectStatus('deleteListItem', { item_id: itemId }, 204);
    await expectStatus('deleteListItems', { schema_id: schemaId, item_ids: [batchIds[1]] }, 204);
    await expectStatus('deleteListSchemaField', { schema_id: schemaId, slug: 'qty' }, 204);
    await expectStatus('getChanges', { limit: 1000 }, 200);
    await expectStatus('getChanges', { schema_id: schemaId }, 200);
    await expectStatus('getChanges', { bot_id: t.me.botId }, 200);
    await expectStatus('getMe', {}, 200);
    await expectStatus('deleteListSchema', { schema_id: schemaId }, 204);

    // the recorder saw every tenant table the methods read and write
    const touched = new Set(seen.flatMap((sql) => [...sql.matchAll(TOUCHES)].map((m) => m[1]!)));
    for (const table of ['bots', 'list_schemas', 'list_items', 'contacts', 'contact_variables']) {
      expect(touched, table).toContain(table);
    }
  });

  it('a statement without owner_id is caught (the check can fail)', () => {
    expect(unscoped(['select * from list_items where id = $1'])).toHaveLength(1);
    expect(unscoped(['select owner_id from list_schemas where id = $1'])).toHaveLength(1);
    expect(unscoped(['select * from "list_items" where "owner_id" = $1 and id = $2'])).toEqual([]);
    expect(unscoped(['insert into list_items (id, owner_id) values ($1, $2)'])).toEqual([]);
  });
});

describe('another account’s rows (403 versus 404)', () => {
  it('are looked up among the caller’s own rows first, and only then anywhere', async () => {
    const foreign = await call(
      t.app,
      'createListSchema',
      {
        name: 'Theirs',
        project_uuid: t.other.projectUuid,
        fields: [{ slug: 'a', name: 'A', type: 'string' }],
      },
      { key: t.other.apiKey },
    );
    expect(foreign.status).toBe(201);
    const { res, statements } = await recorded('getListSchema', {
      schema_id: foreign.body.data.id,
    });
    expect(res.status).toBe(403);
    const lookups = statements.filter((sql) => /\blist_schemas\b/.test(sql));
    expect(lookups.length).toBeGreaterThanOrEqual(2);
    expect(lookups[0]).toMatch(/\bowner_id\b/);
    expect(unscoped(lookups).length).toBeGreaterThan(0);

    const missing = await recorded('getListSchema', { schema_id: 'no-such-list' });
    expect(missing.res.status).toBe(404);
  });
});
