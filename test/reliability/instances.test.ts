import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/infra/db/client.js';
import { projects } from '../../src/infra/db/schema/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { makeTenant, type Tenant } from '../helpers/factories.js';
import { ensureBuilt, timedCall, type Timed } from '../helpers/processes.js';
import { startFleet, type Fleet } from '../helpers/serverFleet.js';

/**
 * Concurrency and the rate limit with two real server processes on one Postgres database and one
 * Redis: the concurrency invariants hold across instances (the in-process versions are in
 * listCapPerProject, methods/addListSchemaField and contactsRace), and so does the rate limit.
 * Every test uses its own account, so each has a whole 120-per-minute budget.
 */
let database: TestDatabase;
let fleet: Fleet;
const urls = () => fleet.servers.map((s) => s.url);
/** the i-th request goes to the instances in turn */
const on = (i: number) => urls()[i % urls().length]!;

beforeAll(async () => {
  await ensureBuilt();
  database = await createTestDatabase();
  // the default limit: 120 requests per minute per account (the limits)
  fleet = await startFleet(database.url, 2, { LOG_LEVEL: 'error' });
}, 180_000);
afterAll(async () => {
  await fleet?.stop();
  await database?.drop();
});

const db = () => database.handle.db;
const FIELDS = [{ name: 'Title', slug: 'title', type: 'string' }];
const statuses = (rs: Timed[]) =>
  rs.reduce<Record<number, number>>((m, r) => ((m[r.status] = (m[r.status] ?? 0) + 1), m), {});

describe('concurrency invariants across two instances', () => {
  it('lets exactly 10 of 50 concurrent creates into a project at 4990 lists: 5000, never 5001 (createListSchema)', async () => {
    const tenant = await makeTenant(db());
    await db().execute(sql`
      INSERT INTO list_schemas (id, project_uuid, owner_id, name, fields)
      SELECT ${tenant.projectUuid} || '-' || g, ${tenant.projectUuid}::uuid, ${tenant.accountId},
             'L' || g, '[]'::jsonb
      FROM generate_series(1, 4990) g`);
    await db()
      .update(projects)
      .set({ listCount: 4990 })
      .where(eq(projects.uuid, tenant.projectUuid));

    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        timedCall(
          on(i),
          'createListSchema',
          { name: `C${i}`, project_uuid: tenant.projectUuid, fields: FIELDS },
          tenant.apiKey,
        ),
      ),
    );
    expect(statuses(answers)).toEqual({ 201: 10, 403: 40 });
    for (const r of answers.filter((a) => a.status === 403)) {
      expect(r.body).toEqual({
        message: 'A project cannot have more than 5000 lists.',
        error: 'A project cannot have more than 5000 lists.',
      });
    }
    const [row] = await queryRows<{ n: number }>(
      db(),
      sql`SELECT count(*)::int AS n FROM list_schemas WHERE project_uuid = ${tenant.projectUuid} AND deleted_at IS NULL`,
    );
    expect(row!.n).toBe(5000);
  }, 60_000);

  it('lets exactly one of 20 concurrent addListSchemaField with one slug succeed; the rest 422 field.slug (addListSchemaField)', async () => {
    const tenant = await makeTenant(db());
    const list = await timedCall(
      on(0),
      'createListSchema',
      { name: 'L', project_uuid: tenant.projectUuid, fields: FIELDS },
      tenant.apiKey,
    );
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        timedCall(
          on(i),
          'addListSchemaField',
          {
            schema_id: list.body.data.id,
            field: { name: `Racer ${i}`, slug: 'racer', type: i % 2 ? 'number' : 'string' },
          },
          tenant.apiKey,
        ),
      ),
    );
    expect(statuses(answers)).toEqual({ 204: 1, 422: 19 });
    for (const r of answers.filter((a) => a.status === 422)) {
      expect(Object.keys(r.body.errors)).toEqual(['field.slug']);
    }
    const schema = await timedCall(
      on(1),
      'getListSchema',
      { schema_id: list.body.data.id },
      tenant.apiKey,
    );
    expect(Object.keys(schema.body.data.fields)).toEqual(['title', 'racer']);
  }, 60_000);

  it('turns 50 concurrent createOrUpdateContact with one telegram_id into one contact, one 201, one subscriber (createOrUpdateContact)', async () => {
    const tenant = await makeTenant(db());
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        timedCall(
          on(i),
          'createOrUpdateContact',
          {
            bot_id: tenant.botId,
            messenger: 'telegram',
            telegram_id: 424242,
            name: `Racer ${i}`,
          },
          tenant.apiKey,
        ),
      ),
    );
    expect(statuses(answers)).toEqual({ 200: 49, 201: 1 });
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    const [row] = await queryRows<{ contacts: number; subscribers: number }>(
      db(),
      sql`SELECT (SELECT count(*)::int FROM contacts WHERE bot_id = ${tenant.botId}) AS contacts,
                 subscriber_count AS subscribers FROM bots WHERE id = ${tenant.botId}`,
    );
    expect(row).toEqual({ contacts: 1, subscribers: 1 });
  }, 60_000);
});

describe('the rate limit across two instances on one Redis (the limits)', () => {
  let tenant: Tenant;
  let listId: string;

  beforeAll(async () => {
    tenant = await makeTenant(db());
    // the list is made in SQL: every API request of this account is part of the count
    listId = `rate-${tenant.projectUuid}`;
    await db().execute(sql`
      INSERT INTO list_schemas (id, project_uuid, owner_id, name, fields)
      VALUES (${listId}, ${tenant.projectUuid}::uuid, ${tenant.accountId}, 'Rate',
              ${JSON.stringify([{ slug: 'i', name: 'I', type: 'number', is_required: true, is_hidden: false, is_encryptable: false }])}::jsonb)`);
  });

  it('answers exactly 120 of 300 concurrent writes and 429s the rest, which write nothing', async () => {
    // one fixed minute window: do not start in its last seconds
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_500 - intoMinute));
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        timedCall(on(i), 'addListItem', { schema_id: listId, data: { i } }, tenant.apiKey),
      ),
    );
    expect(statuses(answers)).toEqual({ 201: 120, 429: 180 });
    for (const r of answers.filter((a) => a.status === 429)) {
      expect(r.body).toEqual({ message: 'Too Many Attempts.' });
      const retry = Number(r.headers.get('retry-after'));
      expect(Number.isInteger(retry) && retry >= 1 && retry <= 60, `Retry-After ${retry}`).toBe(
        true,
      );
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    }
    // both instances answered some of the 120
    for (const url of urls()) {
      expect(answers.filter((a, i) => on(i) === url && a.status === 201).length).toBeGreaterThan(0);
    }
    const [row] = await queryRows<{ n: number; counter: number }>(
      db(),
      sql`SELECT (SELECT count(*)::int FROM list_items WHERE schema_id = ${listId}) AS n,
                 item_count::int AS counter FROM list_schemas WHERE id = ${listId}`,
    );
    // a 429 never performs the write
    expect(row).toEqual({ n: 120, counter: 120 });
    const written = new Set(answers.filter((a) => a.status === 201).map((a) => a.body.data.i));
    expect(written.size).toBe(120);
  }, 90_000);
});
